import { spawn } from 'node:child_process';

/**
 * Opens `url` in the user's browser: `open` on macOS, `start` on Windows, `xdg-open` where a
 * desktop session runs (DISPLAY or WAYLAND_DISPLAY). False when there is none to open (a server,
 * an SSH session, CI) or the opener cannot start; the caller prints the URL anyway.
 */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : env['DISPLAY'] || env['WAYLAND_DISPLAY']
          ? ['xdg-open', [url]]
          : [undefined, []];
  if (!command) return false;
  return new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
