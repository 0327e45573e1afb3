/**
 * How common each byte is in OpenShift logs, as ranks (0 = the rarest, 255 = the most common),
 * counted over the 65 MB of pod and host logs of the two real must-gathers in
 * `shared/samples-real` (aws, metal) by `scripts/byte-ranks.mjs`. ripgrep picks the byte it
 * searches for from such a table: a search runs at memchr's speed between occurrences of its
 * first byte, so a rare first byte is a fast search.
 */
const BYTE_RANKS: readonly number[] = [
  152, 0, 1, 2, 3, 4, 5, 6, 7, 175, 213, 8, 9, 10, 11, 12,
  13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
  255, 162, 229, 164, 163, 166, 172, 180, 205, 206, 178, 179, 212, 244, 239, 223,
  253, 251, 245, 238, 240, 234, 228, 232, 236, 237, 243, 173, 188, 217, 189, 167,
  174, 201, 177, 207, 196, 202, 185, 191, 182, 215, 161, 176, 184, 183, 194, 187,
  195, 165, 204, 209, 220, 192, 186, 190, 160, 168, 214, 198, 203, 216, 157, 210,
  158, 242, 222, 241, 231, 254, 226, 230, 224, 247, 193, 219, 235, 225, 248, 252,
  233, 197, 249, 246, 250, 227, 221, 211, 208, 218, 181, 199, 169, 200, 159, 29,
  153, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,
  45, 46, 47, 48, 154, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
  156, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74,
  75, 76, 77, 78, 79, 170, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89,
  90, 91, 171, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104,
  105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120,
  121, 122, 155, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135,
  136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151,
];

/**
 * Longest anchor searched: Node searches a needle of up to 6 bytes by memchr on its first byte,
 * a longer one by Boyer-Moore-Horspool, 2-5 times slower over logs (a 45-byte literal: 3.8 ms
 * against 1.4 ms from its rarest byte, over 30 MB of a real must-gather's logs).
 */
const MAX_ANCHOR_BYTES = 6;

/** The part of `needle` to search for (from its rarest byte, at most six bytes) and where it starts in the needle. */
export function anchorOf(needle: Buffer): { anchor: Buffer; offset: number } {
  let offset = 0;
  for (let i = 1; i < needle.length; i++) if (BYTE_RANKS[needle[i]!]! < BYTE_RANKS[needle[offset]!]!) offset = i;
  return { anchor: needle.subarray(offset, offset + MAX_ANCHOR_BYTES), offset };
}
