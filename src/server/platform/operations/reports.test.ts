import { describe, expect, it } from 'vitest';
import { REPORT_TOO_LONG } from '@shared/schemas/common';
import type { Db } from '../../db/client';
import { AppError } from '../http/errors';
import { type ReportConnection, Reports } from './reports';

const db = {} as Db;
const later = <T>() => {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
};

describe('Reports', () => {
  it('runs no more reports at once than its slots; the next starts when one ends', async () => {
    const reports = new Reports(db, { slots: 2, timeoutMs: 5_000 });
    const gates = [later<number>(), later<number>(), later<number>()];
    const runs = gates.map((gate) => reports.run(() => gate.promise));
    expect(reports.load).toEqual({ running: 2, waiting: 1 });
    gates[0].release(1);
    await runs[0];
    expect(reports.load).toEqual({ running: 2, waiting: 0 });
    gates[1].release(2);
    gates[2].release(3);
    expect(await Promise.all(runs)).toEqual([1, 2, 3]);
    expect(reports.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a report that waits longer than its time answers "This report is taking too long" (503) and never runs', async () => {
    const reports = new Reports(db, { slots: 1, timeoutMs: 50 });
    const gate = later<void>();
    const first = reports.run(() => gate.promise);
    let ran = false;
    const error = await reports.run(async () => (ran = true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 503, code: 'REPORT_TIMEOUT', message: REPORT_TOO_LONG });
    expect(ran).toBe(false);
    expect(reports.load).toEqual({ running: 1, waiting: 0 });
    gate.release();
    await first;
  });

  it('a statement stopped by the server (SQLSTATE 57014) is the same answer; other errors pass through', async () => {
    const reports = new Reports(db, { slots: 1, timeoutMs: 1_000 });
    const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    await expect(reports.run(() => Promise.reject(new Error('wrapped', { cause: cancelled })))).rejects.toMatchObject({ code: 'REPORT_TIMEOUT' });
    await expect(reports.run(() => Promise.reject(new Error('other')))).rejects.toThrow('other');
    expect(reports.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a client that hangs up gives up its turn', async () => {
    const reports = new Reports(db, { slots: 1, timeoutMs: 5_000 });
    const gate = later<void>();
    const first = reports.run(() => gate.promise);
    const controller = new AbortController();
    const waiting = reports.run(async () => 'ran', controller.signal).catch((e: unknown) => e);
    expect(reports.load.waiting).toBe(1);
    controller.abort();
    expect(await waiting).toMatchObject({ code: 'CLIENT_GONE' });
    expect(reports.load).toEqual({ running: 1, waiting: 0 });
    gate.release();
    await first;
  });

  it('a client that hangs up while its report runs cancels the statement, and the connection is not reused', async () => {
    const released: boolean[] = [];
    let cancels = 0;
    const connection: ReportConnection = {
      db,
      cancel: async () => {
        cancels += 1;
      },
      release: (cancelled) => released.push(cancelled),
    };
    const reports = new Reports(db, { slots: 1, timeoutMs: 5_000 }, async () => connection);
    const controller = new AbortController();
    let rejectStatement!: (e: unknown) => void;
    let statementStarted!: () => void;
    const started = new Promise<void>((resolve) => (statementStarted = resolve));
    const running = reports
      .run(() => {
        statementStarted();
        return new Promise((_resolve, reject) => (rejectStatement = reject));
      }, controller.signal)
      .catch((e: unknown) => e);
    await started;
    controller.abort();
    // The server answers the cancelled statement with an error, as PostgreSQL does (57014).
    rejectStatement(Object.assign(new Error('canceling statement due to user request'), { code: '57014' }));
    expect(await running).toMatchObject({ code: 'CLIENT_GONE' });
    expect(cancels).toBe(1);
    expect(released).toEqual([true]);
    expect(reports.load).toEqual({ running: 0, waiting: 0 });

    // A report that ends normally gives its connection back for reuse.
    expect(await reports.run(async () => 'done', new AbortController().signal)).toBe('done');
    expect(released).toEqual([true, false]);
  });
});
