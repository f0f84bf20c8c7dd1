import { stringify } from 'csv-stringify/sync'

/** Spreadsheet programs run a cell that starts like a formula; a leading quote keeps it text. */
const defuse = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)

/**
 * Rows as CSV for people to open in a spreadsheet: a header line, a byte-order mark so UTF-8 is read
 * as such, formula-like cells defused, booleans as true/false, records ended by CRLF (RFC 4180; a line
 * break inside a quoted cell stays as typed).
 */
export function toCsv(rows: object[], columns?: readonly string[]): string {
  return stringify(rows, {
    bom: true,
    header: true,
    record_delimiter: 'windows',
    ...(columns ? { columns: [...columns] } : {}),
    cast: { string: defuse, boolean: (v) => (v ? 'true' : 'false') },
  })
}
