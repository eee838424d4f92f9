// google.protobuf.Struct read and written straight from and to plain JavaScript values.
//
// Resource properties travel between the engine and the plugin as Structs. google-protobuf's own
// Struct builds a message object per value: a 100,000-record ZoneRecords costs 340 MB of live
// objects per copy, and a Diff carries three copies, besides 5 s to decode and 12 s to encode.
// Installed, the codec makes every Struct the generated messages read or write hold a plain
// value instead (`toJavaScript()` returns it; `fromJavaScript()` keeps it), so memory is the
// size of the plain values and time is linear in the bytes. The wire format is unchanged.
import { BinaryReader, BinaryWriter } from "google-protobuf";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

type Plain = Record<string, unknown>;

function setKey(target: Plain, key: string, value: unknown): void {
  // A key named __proto__ is data here, not the object's prototype.
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
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
        entry.key = reader.readString();
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
        box.value = reader.readString();
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
    const box = { value: null as unknown };
    reader.readMessage(box, readValue);
    list.push(box.value);
  }
}

/** Writes a plain object's fields as a Struct's (an undefined field is left out, as absent). */
export function writeStruct(obj: Plain, writer: BinaryWriter): void {
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === undefined) continue;
    writer.writeMessage(1, [key, value], writeEntry);
  }
}

function writeEntry([key, value]: [string, unknown], writer: BinaryWriter): void {
  writer.writeString(1, key);
  writer.writeMessage(2, { value }, writeValue);
}

// Boxed: the writer leaves out a message given as null, and null is a Value of its own.
function writeValue({ value }: { value: unknown }, writer: BinaryWriter): void {
  switch (typeof value) {
    case "string":
      writer.writeString(3, value);
      return;
    case "number":
      writer.writeDouble(2, value);
      return;
    case "boolean":
      writer.writeBool(4, value);
      return;
    case "object":
      if (value === null) writer.writeEnum(1, 0);
      else if (Array.isArray(value)) writer.writeMessage(6, value, writeList);
      else writer.writeMessage(5, value, writeStruct);
      return;
    default:
      throw new Error(`a ${typeof value} cannot travel in a google.protobuf.Value`);
  }
}

function writeList(list: unknown[], writer: BinaryWriter): void {
  // An undefined element has no Value form; as in JSON, it travels as null.
  for (const item of list) writer.writeMessage(1, { value: item === undefined ? null : item }, writeValue);
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
    if (plain === undefined) serialize(msg, writer);
    else writeStruct(plain, writer);
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
