/**
 * Timestamps found in memory frontmatter → ISO-8601 UTC.
 *
 * Graphiti's temporal model uses the episode's reference time, so sending the real
 * capture time matters, and PAI writes it as `2026-01-04 10:30:00 PST`, which is not ISO.
 * We never let the machine's local zone
 * decide: a time without a zone is read as UTC, and `Date.parse` is not used on
 * free text because V8 reads zone-less strings as local time.
 */

/** Common zone abbreviations → offset from UTC in minutes. Ambiguous ones take their most common meaning. */
export const ZONE_OFFSETS: Readonly<Record<string, number>> = {
  UTC: 0, UT: 0, GMT: 0, Z: 0, WET: 0, WEST: 60, BST: 60, IST: 330,
  CET: 60, CEST: 120, MET: 60, MEST: 120, EET: 120, EEST: 180, MSK: 180,
  // North America (CST = US Central, not China; AST = Atlantic)
  EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420,
  AKST: -540, AKDT: -480, HST: -600, HDT: -540, AST: -240, ADT: -180, NST: -210, NDT: -150,
  // South America, Africa
  BRT: -180, ART: -180, CLT: -240, CLST: -180, SAST: 120, WAT: 60, CAT: 120, EAT: 180,
  // Asia, Oceania
  GST: 240, PKT: 300, NPT: 345, ICT: 420, WIB: 420, HKT: 480, SGT: 480, PHT: 480, AWST: 480,
  JST: 540, KST: 540, ACST: 570, ACDT: 630, AEST: 600, AEDT: 660, NZST: 720, NZDT: 780,
};

export interface TimeParse {
  iso?: string;
  warning?: string;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** ISO-8601 UTC without milliseconds when they are zero: `2026-01-04T18:30:00Z`. */
export function formatIso(ms: number): string | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return undefined;
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) return undefined;
  const base = `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const millis = d.getUTCMilliseconds();
  return millis === 0 ? `${base}Z` : `${base}.${pad(millis, 3)}Z`;
}

const DATE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt]|[ \t]+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:[ \t]*(?:([Zz])|([+-])(\d{2}):?(\d{2})?|(?:(UTC|GMT|UT)[ \t]*([+-])(\d{1,2})(?::?(\d{2}))?)|([A-Za-z]{1,5})))?$/;

/** Parses one value; `warning` explains a fallback or why nothing came out. */
export function parseTime(value: unknown): TimeParse {
  if (value instanceof Date) {
    const iso = formatIso(value.getTime());
    return iso === undefined ? { warning: 'is not a valid date' } : { iso };
  }
  if (typeof value === 'number') {
    // Epoch seconds or milliseconds; bare small numbers (a year, a rating) are not times.
    if (Number.isInteger(value) && value >= 1e9 && value < 1e10) return { iso: formatIso(value * 1000) };
    if (Number.isInteger(value) && value >= 1e12 && value < 1e13) return { iso: formatIso(value) };
    return { warning: `number ${value} is not a time` };
  }
  if (typeof value !== 'string') return { warning: 'is not a time' };
  const text = value.trim();
  if (text === '') return {};
  const m = DATE_TIME.exec(text);
  if (m === null) return { warning: `cannot read "${text.slice(0, 60)}" as a time (use ISO-8601, e.g. 2026-01-04T10:30:00Z)` };
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om, utcWord, uSign, uh, um, abbr] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  // A leap second (60) is clamped rather than rejected.
  const second = s === undefined ? 0 : Math.min(Number(s), 59);
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || (hour === 24 && (minute > 0 || second > 0))) {
    return { warning: `"${text}" is not a valid date/time` };
  }
  let offset = 0;
  let warning: string | undefined;
  if (z !== undefined) offset = 0;
  else if (sign !== undefined) offset = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om ?? 0));
  else if (utcWord !== undefined) offset = (uSign === '-' ? -1 : 1) * (Number(uh) * 60 + Number(um ?? 0));
  else if (abbr !== undefined) {
    const known = ZONE_OFFSETS[abbr.toUpperCase()];
    if (known === undefined) warning = `unknown time zone "${abbr}" in "${text}"; read as UTC`;
    else offset = known;
  }
  if (Math.abs(offset) > 18 * 60) return { warning: `time zone offset in "${text}" is out of range` };
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Reject dates that roll over (2026-02-30 → March).
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return { warning: `"${text}" is not a valid date` };
  }
  const iso = formatIso(local - offset * 60_000);
  if (iso === undefined) return { warning: `"${text}" is out of range` };
  return warning === undefined ? { iso } : { iso, warning };
}

/**
 * ISO-8601 UTC for a frontmatter time value, or undefined. Accepts PAI's
 * `YYYY-MM-DD HH:MM:SS TZ` (zone abbreviations from ZONE_OFFSETS; unknown ones read
 * as UTC), ISO strings with or without offset, date-only strings, YAML Date objects
 * and epoch seconds/milliseconds.
 */
export function toIsoTime(value: unknown): string | undefined {
  return parseTime(value).iso;
}
