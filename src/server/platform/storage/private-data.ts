import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { type Database, type DatabaseOptions, openDatabase } from '../../db/client';

/**
 * DATA_DIR holds the database, every stored book and personal copy, and the backup socket: nothing in it is
 * anyone's business but the service's own user. Folders are 0700 and files 0600 (decision 0064).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Takes group and other bits off everything the process creates, including what libraries create. */
export const PRIVATE_UMASK = 0o077;

/**
 * Makes every file this process creates from now on private to its user, whatever the umask it inherited
 * (a container's 0000 made PGlite's files 0666). Called once at start, before anything is written.
 */
export function createPrivateFiles(): void {
  process.umask(PRIVATE_UMASK);
}

export interface TighteningReport {
  /** Folders and files whose group or other bits were taken off. */
  tightened: number;
  /** What could not be changed (another user's file, a read-only mount), with the reason. */
  failed: Array<{ path: string; reason: string }>;
}

/**
 * Creates DATA_DIR as 0700, or, when it exists, takes the group and other bits off it and everything in it
 * (owner bits stay, so an executable stays executable for its owner). Symbolic links are left alone and not
 * followed. What cannot be changed is reported, not fatal: the operator decides.
 */
export async function securePrivateDir(dir: string): Promise<TighteningReport> {
  const report: TighteningReport = { tightened: 0, failed: [] };
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const tighten = async (target: string, stat: fs.Stats) => {
    if (stat.isSymbolicLink() || (stat.mode & 0o077) === 0) return;
    try {
      await fsp.chmod(target, stat.mode & 0o7700);
      report.tightened += 1;
    } catch (error) {
      report.failed.push({ path: target, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
    }
  };
  await tighten(dir, await fsp.lstat(dir));
  const walk = async (folder: string): Promise<void> => {
    let names: fs.Dirent[];
    try {
      names = await fsp.readdir(folder, { withFileTypes: true });
    } catch (error) {
      report.failed.push({ path: folder, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
      return;
    }
    for (const entry of names) {
      const target = path.join(folder, entry.name);
      const stat = await fsp.lstat(target).catch(() => null);
      if (!stat) continue; // Gone meanwhile.
      await tighten(target, stat);
      if (stat.isDirectory()) await walk(target);
    }
  };
  await walk(dir);
  return report;
}

/** Where the operator reads what a tightening did: by default the start-up output of the server or a command-line tool. */
export interface TighteningLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * DATA_DIR made private, with a line for the operator when something in it was open to others (`quiet`
 * leaves that line out) and a warning naming what could not be changed.
 */
export async function secureDataDir(
  dataDir: string,
  log: TighteningLog = { info: console.log, warn: console.warn },
  { quiet = false } = {},
): Promise<TighteningReport> {
  const report = await securePrivateDir(dataDir);
  if (report.tightened && !quiet) {
    log.info(`DATA_DIR ${dataDir}: ${report.tightened} folders and files were open to other users of this machine; they are now private to the service's user (0700/0600).`);
  }
  if (report.failed.length) {
    const shown = report.failed.slice(0, 5).map((f) => `${f.path} (${f.reason})`).join(', ');
    const more = report.failed.length > 5 ? ` and ${report.failed.length - 5} more` : '';
    log.warn(
      `DATA_DIR ${dataDir}: ${report.failed.length} folders or files could not be made private to the service's user, so other users of this machine may read them: ${shown}${more}. Change their owner or modes by hand (folders 0700, files 0600).`,
    );
  }
  return report;
}

/** DATA_DIR is used unless both the database and the files live elsewhere (PostgreSQL and S3). */
export const usesDataDir = (config: Pick<Config, 'DATABASE_URL' | 'S3_BUCKET'>) => !config.DATABASE_URL || !config.S3_BUCKET;

/**
 * How the server and the command-line tools open the database: from here on every file the process creates
 * is private; DATA_DIR, and whatever an older version or another tool left open in it, is made private (or the
 * operator told what could not be) before anything is written; and once PGlite is up, the modes it sets of
 * its own accord (0666 on the files it unpacks when it creates a database, 0644 on a few at every start,
 * whatever the umask) are taken back, without a line about it since that is no news.
 */
export async function openPrivateDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'S3_BUCKET' | 'dataDir'>,
  options: Omit<DatabaseOptions, 'databaseUrl' | 'dataDir'> = {},
  log?: TighteningLog,
): Promise<Database> {
  createPrivateFiles();
  if (usesDataDir(config)) await secureDataDir(config.dataDir, log);
  const database = await openDatabase({ ...options, databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  if (database.kind === 'pglite') await secureDataDir(path.join(config.dataDir, 'pglite'), log, { quiet: true });
  return database;
}
