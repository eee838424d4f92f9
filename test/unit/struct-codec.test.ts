// The plugin's own google.protobuf.Struct codec against google-protobuf's: the same bytes mean
// the same values both ways, and the size computed for the engine's limit is the size written.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BinaryReader } from "google-protobuf";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { encodeStruct, installStructCodec, readStruct } from "../../provider/src/plugin/struct-codec";
import { structSize } from "../../provider/src/framework/engine/message-size";

type Obj = Record<string, unknown>;

const SAMPLE: Obj = {
  zoneId: "42",
  records: [
    { name: "@", type: "TXT", content: "v=spf1 ~all — ünïcödé 🚀", ttl: 300 },
    { name: "www", type: "A", content: "192.0.2.1", ttl: 3600 },
  ],
  nothing: null,
  empty: "",
  zero: 0,
  negative: -1.5,
  flag: false,
  nested: { deeper: { list: [[], {}, [null, true, 2]] } },
  secret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s3cr3t" },
};

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<unknown>;
const objects = fc.dictionary(fc.string(), json, { maxKeys: 6 }) as fc.Arbitrary<Obj>;

/** google-protobuf's own encoding (which the codec must read). */
function referenceBytes(value: Obj): Uint8Array {
  return Struct.fromJavaScript(value as never).serializeBinary();
}

const codecBytes = encodeStruct;

describe("the Struct codec", () => {
  it("reads what google-protobuf writes and writes what it reads, byte for byte in size", () => {
    for (const value of [SAMPLE, ...fc.sample(objects, { numRuns: 300, seed: 7 })]) {
      const reference = referenceBytes(value);
      expect(readStruct(new BinaryReader(reference))).toEqual(value);
      const ours = codecBytes(value);
      expect(Struct.deserializeBinary(ours).toJavaScript()).toEqual(value);
      expect(ours.length).toBe(reference.length);
      expect(structSize(value)).toBe(reference.length);
    }
  });

  it("keeps a key named __proto__ as data", () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as Obj;
    // google-protobuf's own Struct cannot hold this key, so the codec writes it.
    const read = readStruct(new BinaryReader(codecBytes(value)));
    expect(Object.keys(read)).toEqual(["__proto__", "y"]);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });

  it("decodes the same record in the state and the inputs of one message into one object, and different ones apart", () => {
    const www = { name: "www", type: "A", content: "192.0.2.1", ttl: 3600 };
    const records = [www, { name: "mail", type: "MX", content: "10 mx.example.com", ttl: 300 }, { ...www, ttl: 60 }];
    const value = { olds: { records }, news: { records: [...records].reverse() }, nested: [[www], [], null] };
    const read = readStruct(new BinaryReader(codecBytes(value))) as typeof value;
    expect(read).toEqual(value);
    expect(read.news.records[2]).toBe(read.olds.records[0]);
    expect(read.news.records[0]).toBe(read.olds.records[2]);
    expect(read.olds.records[2]).not.toBe(read.olds.records[0]);
    expect((read.nested[0] as unknown[])[0]).toBe(read.olds.records[0]);
  });

  it("once installed, carries plain values through the generated messages of the provider protocol", () => {
    // What the engine would send, encoded by google-protobuf before the codec is installed.
    const request = new providerPb.DiffRequest()
      .setUrn("urn:x")
      .setOlds(Struct.fromJavaScript(SAMPLE as never))
      .setNews(Struct.fromJavaScript({ zoneId: "42" } as never));
    const wire = request.serializeBinary();
    const referenceAnswer = new providerPb.ReadResponse()
      .setId("42")
      .setProperties(Struct.fromJavaScript(SAMPLE as never))
      .serializeBinary();
    installStructCodec();
    const decoded = providerPb.DiffRequest.deserializeBinary(wire);
    expect(decoded.getUrn()).toBe("urn:x");
    expect(decoded.getOlds()!.toJavaScript()).toEqual(SAMPLE);
    expect(decoded.getNews()!.toJavaScript()).toEqual({ zoneId: "42" });
    // An answer written by the codec, as the engine reads it: the same bytes google-protobuf wrote.
    const answer = new providerPb.ReadResponse()
      .setId("42")
      .setProperties(Struct.fromJavaScript(SAMPLE as never))
      .serializeBinary();
    expect(answer.length).toBe(referenceAnswer.length);
    expect(providerPb.ReadResponse.deserializeBinary(answer).getProperties()!.toJavaScript()).toEqual(SAMPLE);
  });
});
