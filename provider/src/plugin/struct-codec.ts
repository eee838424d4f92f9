// google.protobuf.Struct read and written straight from and to plain JavaScript values.
//
// Resource properties travel between the engine and the plugin as Structs. google-protobuf's own
// Struct builds a message object per value: a 100,000-record ZoneRecords costs 340 MB of live
// objects per copy, and a Diff carries three copies, besides 5 s to decode and 12 s to encode.
// Installed, the codec makes every Struct the generated messages read or write hold a plain
// value instead (`toJavaScript()` returns it; `fromJavaScript()` keeps it), so memory is the
// size of the plain values and time is linear in the bytes. The wire format is unchanged.
import type { BinaryReader, BinaryWriter } from "google-protobuf";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { structSize, varintSize } from "../framework/engine/message-size";

type Plain = Record<string, unknown>;

function setKey(target: Plain, key: string, value: unknown): void {
  // A key named __proto__ is data here, not the object's prototype.
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * What the message being decoded already holds, each kept once. An Update or a Diff carries a
 * large list three times over (the state, the new inputs, the old inputs), mostly the same
 * records: an object of a list whose bytes were decoded before is that same object, and a string
 * decoded before is that same string, so the copies cost one list of references each. Decoded
 * values are never changed in place (the operations build new values), so sharing them is safe.
 * The tables live only while one message is decoded (decoding is synchronous; they are emptied
 * on the next microtask).
 */
const decoded = new Map<string, string>();
/** Objects of lists by a hash of their bytes; a hash whose bytes differ is simply not shared. */
const objectsByHash = new Map<number, { bytes: Uint8Array; start: number; end: number; value: unknown }>();
let clearScheduled = false;

function clearSoon(): void {
  if (clearScheduled) return;
  clearScheduled = true;
  queueMicrotask(() => {
    decoded.clear();
    objectsByHash.clear();
    clearScheduled = false;
  });
}

function readShared(reader: BinaryReader): string {
  const s = reader.readString();
  // Long strings are seldom repeated; a table of them would only hold memory.
  if (s.length > 256) return s;
  clearSoon();
  const known = decoded.get(s);
  if (known !== undefined) return known;
  decoded.set(s, s);
  return s;
}

/** The tag of a google.protobuf.Value's struct_value (field 5, length-delimited). */
const STRUCT_VALUE_TAG = (5 << 3) | 2;

/**
 * A list element (a Value) at the reader's cursor, which sits on its length: an object decoded
 * before from the same bytes is returned as it is, without decoding these.
 */
function readListElement(reader: BinaryReader): unknown {
  const bytes = reader.getBuffer();
  const start = reader.getCursor();
  let length = 0;
  let p = start;
  for (let shift = 1; ; shift *= 128) {
    const b = bytes[p++]!;
    length += (b & 127) * shift;
    if (b < 128) break;
  }
  const end = p + length;
  const box = { value: null as unknown };
  if (bytes[p] !== STRUCT_VALUE_TAG || length > 4096) {
    reader.readMessage(box, readValue);
    return box.value;
  }
  let hash = 0x811c9dc5;
  for (let i = p; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  clearSoon();
  const seen = objectsByHash.get(hash);
  if (seen && seen.end - seen.start === end - start && sameBytes(seen.bytes, seen.start, bytes, start, end - start)) {
    reader.skipField();
    return seen.value;
  }
  reader.readMessage(box, readValue);
  if (!seen) objectsByHash.set(hash, { bytes, start, end, value: box.value });
  return box.value;
}

function sameBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** A Struct's fields from a reader positioned inside it. */
export function readStruct(reader: BinaryReader): Plain {
  const out: Plain = {};
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    const entry: { key: string; value: unknown } = { key: "", value: null };
    reader.readMessage(entry, readEntry);
    setKey(out, entry.key, entry.value);
  }
  return out;
}

function readEntry(entry: { key: string; value: unknown }, reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case 1:
        entry.key = readShared(reader);
        break;
      case 2: {
        const box = { value: null as unknown };
        reader.readMessage(box, readValue);
        entry.value = box.value;
        break;
      }
      default:
        reader.skipField();
    }
  }
}

function readValue(box: { value: unknown }, reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case 1:
        reader.readEnum();
        box.value = null;
        break;
      case 2:
        box.value = reader.readDouble();
        break;
      case 3:
        box.value = readShared(reader);
        break;
      case 4:
        box.value = reader.readBool();
        break;
      case 5: {
        const holder = { value: {} as Plain };
        reader.readMessage(holder, (h: { value: Plain }, r: BinaryReader) => (h.value = readStruct(r)));
        box.value = holder.value;
        break;
      }
      case 6: {
        const list: unknown[] = [];
        reader.readMessage(list, readList);
        box.value = list;
        break;
      }
      default:
        reader.skipField();
    }
  }
}

function readList(list: unknown[], reader: BinaryReader): void {
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    list.push(readListElement(reader));
  }
}

/**
 * A plain object as the bytes of a Struct (an undefined field is left out, as absent; an undefined
 * list element travels as null). The size is known first (structSize), so the bytes are written
 * back to front into one buffer: each length is known by the time its prefix is written.
 */
export function encodeStruct(obj: Plain): Uint8Array {
  const size = structSize(obj);
  const buf = Buffer.allocUnsafe(size);
  let pos = size;
  const varint = (n: number) => {
    let p = (pos -= varintSize(n));
    while (n >= 128) {
      buf[p++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    buf[p] = n;
  };
  const tag = (field: number, wireType: number) => (buf[--pos] = (field << 3) | wireType);
  /** The length and tag of a field whose body ends at `end` and starts at `pos`. */
  const delimited = (end: number, field: number) => {
    varint(end - pos);
    tag(field, 2);
  };
  const text = (s: string) => {
    const length = Buffer.byteLength(s);
    pos -= length;
    buf.write(s, pos, length, "utf8");
  };
  const value = (v: unknown): void => {
    const end = pos;
    switch (typeof v) {
      case "number":
        pos -= 8;
        buf.writeDoubleLE(v, pos);
        tag(2, 1);
        return;
      case "boolean":
        buf[--pos] = v ? 1 : 0;
        tag(4, 0);
        return;
      case "string":
        text(v);
        delimited(end, 3);
        return;
      case "undefined":
        buf[--pos] = 0;
        tag(1, 0);
        return;
      case "object":
        if (v === null) {
          buf[--pos] = 0;
          tag(1, 0);
        } else if (Array.isArray(v)) {
          for (let i = v.length - 1; i >= 0; i--) {
            const itemEnd = pos;
            value(v[i]);
            delimited(itemEnd, 1);
          }
          delimited(end, 6);
        } else {
          struct(v as Plain);
          delimited(end, 5);
        }
        return;
      default:
        text(String(v));
        delimited(end, 3);
        return;
    }
  };
  const struct = (o: Plain): void => {
    const keys = Object.keys(o);
    for (let i = keys.length - 1; i >= 0; i--) {
      const v = o[keys[i]!];
      if (v === undefined) continue;
      const entryEnd = pos;
      value(v);
      delimited(entryEnd, 2);
      const keyEnd = pos;
      text(keys[i]!);
      delimited(keyEnd, 1);
      delimited(entryEnd, 1);
    }
  };
  struct(obj);
  if (pos !== 0) throw new Error(`Struct encoding: ${pos} bytes of ${size} left unwritten`);
  return buf;
}

const PLAIN = Symbol("plain value");
type PlainStruct = Struct & { [PLAIN]?: Plain };

let installed = false;

/** Makes google-protobuf's Struct (for every generated message of this process) use the codec above. */
export function installStructCodec(): void {
  if (installed) return;
  installed = true;
  const S = Struct as unknown as {
    deserializeBinaryFromReader(msg: PlainStruct, reader: BinaryReader): PlainStruct;
    serializeBinaryToWriter(msg: PlainStruct, writer: BinaryWriter): void;
    fromJavaScript(obj: Plain): PlainStruct;
  };
  const serialize = S.serializeBinaryToWriter;
  const toJavaScript = Struct.prototype.toJavaScript;
  S.deserializeBinaryFromReader = (msg, reader) => {
    msg[PLAIN] = readStruct(reader);
    return msg;
  };
  S.serializeBinaryToWriter = (msg, writer) => {
    const plain = msg[PLAIN];
    if (plain === undefined) return serialize(msg, writer);
    // One buffer, appended as it is: google-protobuf's writer would keep a JavaScript array per field.
    const bytes = encodeStruct(plain);
    writer.writeSerializedMessage(bytes, 0, bytes.length);
  };
  S.fromJavaScript = (obj) => {
    const msg: PlainStruct = new Struct();
    msg[PLAIN] = obj;
    return msg;
  };
  Struct.prototype.toJavaScript = function (this: PlainStruct) {
    return (this[PLAIN] ?? toJavaScript.call(this)) as ReturnType<typeof toJavaScript>;
  };
}
