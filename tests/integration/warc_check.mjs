// Reads a WARC file with webrecorder's warcio and checks every record's digests.
// Usage: node warc_check.mjs WARCIO_DIR FILE
// Prints one JSON object per record: its type, id, target, the record it is concurrent to, whether
// its block and payload digests hold, and for responses the status and the payload in base64.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.argv[2], "node_modules", "x.js"));
const { WARCParser } = require("warcio");

function base32(bytes) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0, value = 0, out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
const sha1 = (data) => "sha1:" + base32(createHash("sha1").update(data).digest());

function dechunk(data) {
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    if (eol < 0) throw new Error("bad chunk size line");
    const size = parseInt(data.subarray(at, eol).toString(), 16);
    at = eol + 2;
    if (size === 0) break;
    parts.push(data.subarray(at, at + size));
    at += size + 2;
  }
  return Buffer.concat(parts);
}

const parser = new WARCParser(createReadStream(process.argv[3]), { parseHttp: false });
for await (const record of parser) {
  const h = record.warcHeaders.headers;
  const block = Buffer.from(await record.readFully(false));
  const out = {
    type: h.get("WARC-Type"),
    id: h.get("WARC-Record-ID"),
    uri: h.get("WARC-Target-URI") || null,
    concurrentTo: h.get("WARC-Concurrent-To") || null,
    date: h.get("WARC-Date"),
    blockOk: h.get("WARC-Block-Digest") ? h.get("WARC-Block-Digest") === sha1(block) : null,
  };
  if (out.type === "response") {
    const end = block.indexOf("\r\n\r\n");
    const head = block.subarray(0, end).toString("latin1");
    let payload = block.subarray(end + 4);
    if (/^transfer-encoding:.*chunked/im.test(head)) payload = dechunk(payload);
    out.status = parseInt(head.split(" ")[1], 10);
    out.payloadOk = h.get("WARC-Payload-Digest") === sha1(payload);
    out.payload = payload.toString("base64");
    out.encoding = (head.match(/^content-encoding:\s*(\S+)/im) || [])[1] || null;
    out.chunked = /^transfer-encoding:.*chunked/im.test(head);
    if (out.chunked) out.chunks = block.subarray(end + 4).toString("base64"); // as framed
    out.truncated = h.get("WARC-Truncated") || null;
  }
  if (out.type === "request") out.requestLine = block.toString("latin1").split("\r\n")[0];
  console.log(JSON.stringify(out));
}
