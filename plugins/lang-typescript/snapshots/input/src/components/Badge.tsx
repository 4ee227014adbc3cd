export interface BadgeProps {
  label: string;
  tone?: 'info' | 'warning';
}

/** A small label; renders to a string so that no JSX runtime is needed here. */
export function Badge({ label, tone = 'info' }: BadgeProps): string {
  return `[${tone}] ${label}`;
}

export const Panel = (props: { title: string }) => (
  <section>
    <h1>{props.title}</h1>
    <Badge label={props.title} />
  </section>
);
