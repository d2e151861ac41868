import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../../model/errors.js';
import { readJson, writeJsonAtomic } from '../json-file.js';

/** The file under the data dir listing the accounts the operator created. */
export const ACCOUNTS_FILE = 'accounts.json';

/** An account: who may onboard its own providers with its token (the token itself is never stored). */
export interface Account {
  id: string;
  name: string;
  createdAt: string;
}

const isAccount = (a: unknown): a is Account =>
  typeof a === 'object' &&
  a !== null &&
  typeof (a as Record<string, unknown>)['id'] === 'string' &&
  typeof (a as Record<string, unknown>)['name'] === 'string';

/** Accounts, persisted as one JSON file (write-then-rename) in the data dir. */
export class AccountStore {
  private constructor(
    private readonly path: string,
    private readonly accounts: Map<string, Account>,
  ) {}

  static async open(dataDir: string): Promise<AccountStore> {
    const path = join(dataDir, ACCOUNTS_FILE);
    const raw = await readJson(path);
    const list = raw === undefined ? [] : (raw as { accounts?: unknown }).accounts;
    if (!Array.isArray(list) || !list.every(isAccount)) throw new UsageError(`${path} is not a provcert account file`);
    return new AccountStore(path, new Map(list.map((a) => [a.id, a])));
  }

  get(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  list(): Account[] {
    return [...this.accounts.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  }

  async create(name: string, now: Date): Promise<Account> {
    const account: Account = { id: `acct-${randomBytes(6).toString('hex')}`, name, createdAt: now.toISOString() };
    this.accounts.set(account.id, account);
    await writeJsonAtomic(this.path, { accounts: this.list() });
    return account;
  }
}
