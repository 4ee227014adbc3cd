import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { loadPluginDir } from '../../../plugins/plugin-dir.js';
import { sandboxedLauncher } from '../../../plugins/sandboxed-launcher.js';
import { evaluateConstraints, probeSandbox, type SandboxTier } from '../../../sandbox/index.js';
import { TraceRecorder } from '../../../traces/trace.js';
import { TraceStore } from '../../../traces/trace-store.js';
import { readLangToml, unsandboxedAllowed } from '../../../catalog/lang-toml.js';

export default class PluginTest extends TravsrCommand {
  static override summary = 'Run the conformance kit against a plugin directory, in a sandbox';
  static override description =
    'Starts the plugin the way the host does (standard tier unless --tier says otherwise) and checks the handshake, ping, analyze over the fixtures in snapshots/input, cancellation, bad input and shutdown. Prints a report, records a trace under ~/.travsr, and exits 1 if any check fails.';
  static override examples = [
    '<%= config.bin %> plugin test plugins/example-lua',
    '<%= config.bin %> plugin test ./my-plugin --fixtures ./samples --json',
  ];
  static override args = {
    dir: Args.directory({ required: true, exists: true, description: 'plugin directory (holds travsr-plugin.json)' }),
  };
  static override flags = {
    tier: Flags.string({
      options: ['standard', 'native-ipc', 'elevated', 'unsandboxed'],
      default: 'standard',
      description: 'sandbox tier to test in',
    }),
    fixtures: Flags.directory({ exists: true, description: 'folder of sample sources to analyze (default: <dir>/snapshots/input)' }),
    timeout: Flags.integer({ default: 15_000, description: 'per-check timeout in milliseconds' }),
    json: Flags.boolean({ default: false, description: 'print the report as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginTest);
    const plugin = await loadPluginDir(args.dir);
    const tier = flags.tier as SandboxTier;
    const recorder = new TraceRecorder('plugin-test', plugin.label);
    recorder.trace.tier = tier;
    const allowUnsandboxed = tier === 'unsandboxed' && unsandboxedAllowed(readLangToml(), plugin.manifest.languages);
    const networkAllow = plugin.manifest.constraints.network === false ? [] : plugin.manifest.constraints.network.allow;
    const grant = { tier, allowUnsandboxed, networkAllow };

    recorder.transition('evaluating_constraints');
    const checks = evaluateConstraints(plugin.manifest, grant);
    recorder.trace.constraints = checks.map((c) => ({ ...c }));
    const refused = checks.filter((c) => !c.ok);
    const store = TraceStore.forRepo(undefined);
    const fail = (code: string, message: string): never => {
      store.save(recorder.finish({ code, message }));
      store.close();
      this.logToStderr(`Error [${code}]: ${message}`);
      this.log(`trace ${recorder.trace.id}`);
      return this.exit(1);
    };
    if (refused.length) {
      fail(
        'CONSTRAINT_REFUSED',
        `${plugin.label} asks for more than the ${tier} tier grants: ${refused.map((c) => `${c.constraint} (requested ${c.requested}, granted ${c.granted})`).join('; ')}; test it with --tier ${refused.some((c) => c.constraint.startsWith('network')) ? 'elevated' : 'native-ipc'}`,
      );
    }
    if (tier !== 'unsandboxed') {
      const probe = await probeSandbox();
      if (!probe.ok) fail('SANDBOX_UNAVAILABLE', `${probe.reason}. Fix: ${probe.fix}`);
    }

    recorder.transition('running_conformance');
    const { runConformance, formatReport } = await import('@travsr/sdk/testing');
    const report = await runConformance({
      pluginDir: plugin.dir,
      launch: sandboxedLauncher(plugin, tier, {
        networkAllow,
        allowUnsandboxed,
        onLaunch: (d) => (recorder.trace.details.sandbox ??= d),
      }),
      timeoutMs: flags.timeout,
      ...(flags.fixtures ? { fixturesDir: flags.fixtures } : {}),
    });
    for (const c of report.checks) {
      recorder.transition(c.ok ? 'check_passed' : 'check_failed', c.name);
      recorder.count(c.ok ? 'checksPassed' : 'checksFailed');
    }
    recorder.trace.details.checks = report.checks;
    const failed = report.checks.filter((c) => !c.ok);
    const trace = recorder.finish(
      failed.length
        ? { code: 'CONFORMANCE_FAILED', message: `${failed.length} check(s) failed: ${failed.map((c) => c.name).join(', ')}` }
        : undefined,
    );
    store.save(trace);
    store.close();

    if (flags.json) this.log(JSON.stringify({ ...report, tier, traceId: trace.id }, null, 2));
    else {
      this.log(formatReport(report));
      this.log(`tier ${tier} · trace ${trace.id}`);
    }
    if (!report.ok) this.exit(1);
  }
}
