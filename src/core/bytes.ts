/** A byte count in binary units: the scaled value and its unit (`[7.6, 'GiB']`; bytes below 1 KiB as they are). */
export function binaryUnits(bytes: number): [value: number, unit: string] {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return [value, UNITS[unit]!];
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
