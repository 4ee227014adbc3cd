import type { StatusReply } from '../../daemon/daemon-service.js';

const MiB = 1024 * 1024;

/** `travsr daemon status` as lines: the daemon, its cache, then each repository. */
export function formatDaemonStatus(s: StatusReply, clientBuild: string): string[] {
  const d = s.daemon;
  const uptime = Math.round((Date.now() - d.startedAt) / 1000);
  const lookups = s.cache.hits + s.cache.misses;
  const lines = [
    `daemon: pid ${d.pid}, version ${d.version} (build ${d.build}${d.build === clientBuild ? '' : `; this travsr is build ${clientBuild}: run \`travsr daemon restart\``}), up ${uptime} s, ${(s.rss / MiB).toFixed(0)} MiB resident`,
    `endpoint: ${s.endpoint}${s.mcpHttpUrl ? `; MCP over HTTP at ${s.mcpHttpUrl}` : ''}`,
    `query cache: ${s.cache.entries} answers (${(s.cache.bytes / MiB).toFixed(1)} MiB), hit rate ${lookups === 0 ? '—' : `${((100 * s.cache.hits) / lookups).toFixed(1)}% (${s.cache.hits} of ${lookups})`}`,
  ];
  if (s.repos.length === 0) lines.push('repositories: none (`travsr init <repo>` or `travsr daemon add <repo>`)');
  for (const r of s.repos) {
    lines.push('', `${r.root}  (corpus ${r.corpus}, graph version ${r.graphVersion})`);
    lines.push(
      `  watch: ${r.watchMode}${r.watchMode === 'watching' ? ` (${r.watchedDirectories} directories)` : ''}${r.watchNote ? ` — ${r.watchNote}` : ''}`,
    );
    lines.push(
      `  update: ${r.updateState}${r.queuedFiles ? `, ${r.queuedFiles} paths queued` : ''}; ${r.updates} updates${r.lastUpdateAt ? `, last ${r.lastUpdateFiles} files in ${r.lastUpdateMs} ms at ${new Date(r.lastUpdateAt).toISOString()}` : ''}`,
    );
    if (r.lastError) lines.push(`  last error: ${r.lastError}`);
    lines.push(
      r.dirtyCount === 0
        ? '  dirty: none (the graph is at HEAD)'
        : `  dirty (in the graph, not committed): ${r.dirtyCount} file${r.dirtyCount === 1 ? '' : 's'}: ${r.dirtyFiles.slice(0, 10).join(', ')}${r.dirtyCount > 10 ? ', …' : ''}`,
    );
  }
  return lines;
}
