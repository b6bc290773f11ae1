// token-offsets.js — where each token of an encoded text sits in that text: [start, end) character
// offsets (JavaScript string indices), the bytes it stands for, and whether the tokenizer added it
// without any text behind it (a BOS from the post-processor).
//
//   const locate = createTokenLocator(tokenizerJson);
//   const { offsets, bytes, added } = locate(text, encoding.tokens);
//
// Why: Hugging Face's JS tokenizer returns ids and token strings but no offset mapping, and role
// spans and `{% generation %}` masks are character ranges of the rendered chat. Each token string
// is turned back into its bytes with the tokenizer's own decoding scheme — byte-level BPE (GPT-2's
// byte-to-character table: Llama 3, Qwen, Mistral Nemo, gpt-oss) or SentencePiece pieces with
// "▁" for a space and <0xNN> byte fallback (Gemma) — and laid end to end along the text's UTF-8
// bytes. Every byte must match: if it does not, this throws instead of guessing.
//
// Example: Llama 3 tokens ["Hello", "Ġworld"] over "Hello world" -> offsets [[0, 5], [5, 11]].

const encoder = new TextEncoder();

// GPT-2's bytes_to_unicode: printable bytes map to themselves, the other 68 to U+0100 onwards.
function byteLevelTable() {
  const direct = [];
  for (let b = 33; b <= 126; b += 1) direct.push(b);
  for (let b = 161; b <= 172; b += 1) direct.push(b);
  for (let b = 174; b <= 255; b += 1) direct.push(b);
  const charToByte = new Map();
  let extra = 0;
  for (let b = 0; b < 256; b += 1) {
    if (direct.includes(b)) charToByte.set(String.fromCharCode(b), b);
    else {
      charToByte.set(String.fromCharCode(256 + extra), b);
      extra += 1;
    }
  }
  return charToByte;
}

let byteTable = null;

function usesByteLevel(node) {
  if (!node) return false;
  if (node.type === 'ByteLevel') return true;
  const children = node.decoders ?? node.pretokenizers ?? node.processors ?? [];
  return children.some(usesByteLevel);
}

function byteLevelBytes(token) {
  byteTable ??= byteLevelTable();
  const out = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i += 1) {
    const b = byteTable.get(token[i]);
    if (b === undefined) return null;
    out[i] = b;
  }
  return out;
}

const BYTE_FALLBACK = /^<0x([0-9A-Fa-f]{2})>$/;

function pieceBytes(token) {
  const m = BYTE_FALLBACK.exec(token);
  if (m) return Uint8Array.of(parseInt(m[1], 16));
  return encoder.encode(token.replaceAll('▁', ' '));
}

function sameBytes(haystack, at, needle) {
  if (at + needle.length > haystack.length) return false;
  for (let i = 0; i < needle.length; i += 1) if (haystack[at + i] !== needle[i]) return false;
  return true;
}

// For every UTF-8 byte of `text`: the string index of the character holding it, and whether the
// byte starts that character. A token may end inside a multi-byte character (byte-level BPE splits
// emoji); its end offset is then the end of that character.
function byteIndex(text) {
  const total = encoder.encode(text).length;
  const charOf = new Int32Array(total + 1);
  const starts = new Uint8Array(total + 1);
  let b = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i);
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    starts[b] = 1;
    for (let k = 0; k < n; k += 1) charOf[b + k] = i;
    b += n;
    i += cp > 0xffff ? 2 : 1;
  }
  charOf[total] = text.length;
  starts[total] = 1;
  const endChar = (byte) => {
    if (starts[byte]) return charOf[byte];
    const i = charOf[byte];
    return i + (text.codePointAt(i) > 0xffff ? 2 : 1);
  };
  return { charOf, endChar };
}

/**
 * Returns locate(text, tokens) -> { offsets: [[start, end]], bytes: [Uint8Array], added: [bool] }.
 */
export function createTokenLocator(tokenizerJson) {
  const byteLevel = usesByteLevel(tokenizerJson.decoder) || usesByteLevel(tokenizerJson.pre_tokenizer);
  const addedContent = new Set(tokenizerJson.added_tokens.map((t) => t.content));
  const normalizeNfc = tokenizerJson.normalizer?.type === 'NFC';
  const cache = new Map();

  function bytesOf(token) {
    let bytes = cache.get(token);
    if (bytes) return bytes;
    if (addedContent.has(token)) bytes = encoder.encode(token);
    else bytes = byteLevel ? byteLevelBytes(token) : pieceBytes(token);
    if (!bytes) throw new Error(`token ${JSON.stringify(token)} is not a byte-level token`);
    if (cache.size < 50_000) cache.set(token, bytes);
    return bytes;
  }

  return function locate(rawText, tokens) {
    const text = normalizeNfc ? rawText.normalize('NFC') : rawText;
    const textBytes = encoder.encode(text);
    const { charOf, endChar } = byteIndex(text);
    const offsets = new Array(tokens.length);
    const bytes = new Array(tokens.length);
    const added = new Array(tokens.length).fill(false);
    let at = 0;
    for (let i = 0; i < tokens.length; i += 1) {
      const b = bytesOf(tokens[i]);
      bytes[i] = b;
      if (sameBytes(textBytes, at, b)) {
        offsets[i] = [charOf[at], endChar(at + b.length)];
        at += b.length;
      } else if (addedContent.has(tokens[i])) {
        // Added by the post-processor (BOS/EOS of add_special_tokens): no text behind it.
        offsets[i] = [charOf[at], charOf[at]];
        added[i] = true;
      } else {
        throw new Error(
          `token ${i} (${JSON.stringify(tokens[i])}) does not match the text at character ${charOf[at]}; offsets cannot be trusted`,
        );
      }
    }
    if (at !== textBytes.length) throw new Error(`the tokens cover ${at} of the text's ${textBytes.length} bytes`);
    if (normalizeNfc && text !== rawText) {
      // Offsets refer to the NFC form; callers compare them with spans of the raw text.
      return { offsets, bytes, added, normalized: true };
    }
    return { offsets, bytes, added, normalized: false };
  };
}
