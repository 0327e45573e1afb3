import { crc32, deflateRawSync } from 'node:zlib';

/** One zip member; `name` is raw bytes when a test needs a name that is not UTF-8. */
export interface ZipMember {
  name: string | Buffer;
  data?: Buffer;
  /** Unix mode, high bits of the external attributes (e.g. 0o120777 for a symlink). */
  mode?: number;
  /** Stored (0) or deflated (8, the default). */
  method?: 0 | 8;
}

/** A central-directory record pointing at local data written elsewhere (for crafted zips). */
interface Central {
  name: Buffer;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  mode: number;
  offset: number;
}

const UTF8_FLAG = 0x800;

/** A well-formed zip of the members, in order (no zip64: tests stay far below 4 GB). */
export function zipBuffer(members: readonly ZipMember[]): Buffer {
  const parts: Buffer[] = [];
  const central: Central[] = [];
  let offset = 0;
  for (const member of members) {
    const name = typeof member.name === 'string' ? Buffer.from(member.name, 'utf8') : member.name;
    const data = member.data ?? Buffer.alloc(0);
    const method = member.method ?? 8;
    const stored = method === 8 ? deflateRawSync(data) : data;
    const record: Central = { name, method, crc: crc32(data), compressedSize: stored.length, size: data.length, mode: member.mode ?? 0o100644, offset };
    const local = localHeader(record);
    parts.push(local, stored);
    central.push(record);
    offset += local.length + stored.length;
  }
  return Buffer.concat([...parts, centralDirectory(central, offset)]);
}

/**
 * A zip bomb with fully overlapping entries (David Fifield's construction, simplified): one
 * deflated kernel of `kernelBytes` zeros, and `entries` central-directory records that all
 * point at it, so the archive inflates to `entries × kernelBytes`.
 */
export function overlappingZipBomb(names: readonly string[], kernelBytes: number): Buffer {
  const zeros = Buffer.alloc(kernelBytes);
  const kernel = deflateRawSync(zeros, { level: 9 });
  const first: Central = { name: Buffer.from(names[0]!, 'utf8'), method: 8, crc: crc32(zeros), compressedSize: kernel.length, size: kernelBytes, mode: 0o100644, offset: 0 };
  const local = localHeader(first);
  const central = names.map((name) => ({ ...first, name: Buffer.from(name, 'utf8') }));
  return Buffer.concat([local, kernel, centralDirectory(central, local.length + kernel.length)]);
}

function localHeader(r: Central): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(UTF8_FLAG, 6);
  header.writeUInt16LE(r.method, 8);
  header.writeUInt16LE(0, 10); // time
  header.writeUInt16LE(0x21, 12); // date: 1980-01-01
  header.writeUInt32LE(r.crc, 14);
  header.writeUInt32LE(r.compressedSize, 18);
  header.writeUInt32LE(r.size, 22);
  header.writeUInt16LE(r.name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, r.name]);
}

function centralDirectory(records: readonly Central[], offset: number): Buffer {
  const parts = records.map((r) => {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, zip 2.0
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(UTF8_FLAG, 8);
    header.writeUInt16LE(r.method, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(r.crc, 16);
    header.writeUInt32LE(r.compressedSize, 20);
    header.writeUInt32LE(r.size, 24);
    header.writeUInt16LE(r.name.length, 28);
    header.writeUInt32LE((r.mode << 16) >>> 0, 38);
    header.writeUInt32LE(r.offset, 42);
    return Buffer.concat([header, r.name]);
  });
  const body = Buffer.concat(parts);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(body.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([body, end]);
}
