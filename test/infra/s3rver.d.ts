/** s3rver (dev dependency, the S3-compatible server the object-store tests run against) ships no types: the parts used. */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
  }
  interface S3rverObject {
    // eslint-disable-next-line @typescript-eslint/consistent-type-imports -- an ambient module declaration cannot import at its top
    content: import('node:stream').Readable | null;
    range?: { start: number; end: number };
  }
  interface FilesystemStore {
    getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<S3rverObject | null>;
    getResourcePath(bucket: string, key: string, resource: string): string;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    store: FilesystemStore;
    run(): Promise<{ address: string; family: string; port: number }>;
    close(): Promise<void>;
  }
}
