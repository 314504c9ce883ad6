// Types of built-site.mjs, for the benchmarks written in TypeScript.
import type { ChildProcess } from 'node:child_process';

export interface BuiltSiteOptions {
  port: number;
  env?: Record<string, string>;
  name?: string;
  prefix?: string[];
  nodeArgs?: string[];
  ipc?: boolean;
  quiet?: boolean;
  dataDir?: string;
  keepData?: boolean;
}

export interface BuiltSite {
  base: string;
  stop(): Promise<void>;
  process: ChildProcess;
  pid: number | undefined;
  dataDir: string;
}

export function startBuiltSite(options: BuiltSiteOptions): Promise<BuiltSite>;
/** The node flags of `npm start`, which every started site gets first. */
export const OPERATOR_NODE_ARGS: string[];
export function waitReady(base: string, intervalMs?: number): Promise<void>;
