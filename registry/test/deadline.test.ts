import { describe, expect, it } from 'vitest';
import { deadlineError, RequestDeadline } from '../src/deadline.js';
import { downloadDeadlineMs } from '../src/registry-transport.js';

describe('RequestDeadline', () => {
  it('aborts its signal with a REGISTRY_DEADLINE_EXCEEDED error that names the URL', async () => {
    const deadline = new RequestDeadline(20, 'https://plugins.example.org/SHA256SUMS');
    await new Promise((ok) => deadline.signal.addEventListener('abort', ok));
    const err = deadlineError(deadline.signal);
    expect(err?.code).toBe('REGISTRY_DEADLINE_EXCEEDED');
    expect(err?.message).toContain('https://plugins.example.org/SHA256SUMS took longer than the 20 ms allowed');
    expect(err?.details?.retryable).toBe(false);
  });

  it('never fires once disposed', async () => {
    const deadline = new RequestDeadline(20, 'https://plugins.example.org/index.json');
    deadline.dispose();
    await new Promise((ok) => setTimeout(ok, 60));
    expect(deadline.signal.aborted).toBe(false);
    expect(deadlineError(deadline.signal)).toBeUndefined();
  });
});

describe('downloadDeadlineMs', () => {
  it('adds the time the size takes at the slowest acceptable rate', () => {
    expect(downloadDeadlineMs({ deadlineMs: 120_000, minBytesPerSecond: 16 * 1024 }, 5 * 1024 * 1024)).toBe(120_000 + 320_000);
    expect(downloadDeadlineMs({ deadlineMs: 1000, minBytesPerSecond: 1000 }, 0)).toBe(1000);
  });
});

describe('RequestDeadline.extend', () => {
  it('moves the deadline later', async () => {
    const deadline = new RequestDeadline(30, 'https://plugins.example.org/artifacts/a.tgz');
    deadline.extend(60_000);
    await new Promise((ok) => setTimeout(ok, 100));
    expect(deadline.signal.aborted).toBe(false);
    deadline.dispose();
  });

  it('counts the extension in the time the error names', async () => {
    const deadline = new RequestDeadline(10, 'https://plugins.example.org/artifacts/a.tgz');
    deadline.extend(20);
    await new Promise((ok) => deadline.signal.addEventListener('abort', ok));
    expect(deadlineError(deadline.signal)?.message).toContain('the 30 ms allowed');
  });
});
