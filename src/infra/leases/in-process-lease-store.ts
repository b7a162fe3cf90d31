/** LeaseStore for a single process: sets in a Map. Nothing expires: a crashed process loses its members with it. */
import { distinctPart, type LeaseStore } from './lease-store.js';

export class InProcessLeaseStore implements LeaseStore {
  private readonly groups = new Map<string, Set<string>>();

  async acquire(group: string, member: string, max: number): Promise<boolean> {
    let members = this.groups.get(group);
    if (members?.has(member)) return true;
    if ((members?.size ?? 0) >= max) return false;
    if (!members) this.groups.set(group, (members = new Set()));
    members.add(member);
    return true;
  }

  async release(group: string, member: string): Promise<void> {
    const members = this.groups.get(group);
    members?.delete(member);
    if (members?.size === 0) this.groups.delete(group);
  }

  async count(group: string): Promise<number> {
    return this.groups.get(group)?.size ?? 0;
  }

  async countDistinct(group: string): Promise<number> {
    return new Set([...(this.groups.get(group) ?? [])].map(distinctPart)).size;
  }

  async close(): Promise<void> {}
}
