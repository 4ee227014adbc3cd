/** Query files are bundled as text (esbuild `loader: { '.scm': 'text' }`). */
declare module '*.scm' {
  const source: string;
  export default source;
}
