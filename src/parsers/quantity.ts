/** Suffixes of a Kubernetes resource quantity (apimachinery `resource.Quantity`): binary, decimal, milli. */
const QUANTITY_SUFFIX: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A Kubernetes resource quantity as a number (`16106296Ki` → bytes, `500m` → 0.5); undefined when it is not one. */
export function quantityValue(text: string): number | undefined {
  const m = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[mkMGTPE])?)$/.exec(text.trim());
  if (!m) return undefined;
  const value = Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : (QUANTITY_SUFFIX[m[3] ?? ''] ?? 1));
  return Number.isFinite(value) ? value : undefined;
}
