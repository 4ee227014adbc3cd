export interface BadgeProps {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface BadgeProps [1:0-4:1]
  label: string;
//^^^^^^^^^^^^^^ definition property BadgeProps.label
  tone?: 'info' | 'warning';
//^^^^^^^^^^^^^^^^^^^^^^^^^^ definition property BadgeProps.tone
}

/** A small label; renders to a string so that no JSX runtime is needed here. */
export function Badge({ label, tone = 'info' }: BadgeProps): string {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Badge [7:0-9:1]
  return `[${tone}] ${label}`;
}

export const Panel = (props: { title: string }) => (
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Panel [11:0-16:2]
  <section>
    <h1>{props.title}</h1>
    <Badge label={props.title} />
//   ^^^^^ reference calls Badge (from Panel)
  </section>
);
// ----- travsr snapshot: src/components/Badge.tsx (typescript, phase A, status ok) -----
// node file <file> (Badge.tsx)
// skeleton Badge: "/** A small label; renders to a string so that no JSX runtime is needed here. */\nexport function Badge({ label, tone = 'info' }: BadgeProps): string"
// skeleton BadgeProps.label: "label: string;"
// skeleton BadgeProps.tone: "tone?: 'info' | 'warning';"
// skeleton BadgeProps: "export interface BadgeProps"
// skeleton Panel: "export const Panel = (props: { title: string }) =>"
// edge contains <file> -> Badge (confidence 1, phase-a)
// edge contains <file> -> BadgeProps (confidence 1, phase-a)
// edge contains <file> -> Panel (confidence 1, phase-a)
// edge contains BadgeProps -> BadgeProps.label (confidence 1, phase-a)
// edge contains BadgeProps -> BadgeProps.tone (confidence 1, phase-a)
