import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format'

/**
 * The parser folds every series of a histogram family into one, labels lost (its flattenMetrics keeps
 * only `le`): each series of a histogram is parsed on its own, under its family's HELP and TYPE, and
 * given its labels back.
 */
function parseSeriesApart(text: string): PrometheusFamily[] {
  const families = parsePrometheusTextFormat(text)
  return families.map((family) => {
    if (family.type !== 'HISTOGRAM') return family
    const lines = text.split('\n').filter((l) => l.startsWith(`${family.name}_`))
    const bySeries = new Map<string, string[]>()
    for (const line of lines) {
      const labels = /\{(.*)\}/.exec(line)?.[1] ?? ''
      const key = labels
        .split(/,(?=[a-z_]+=)/)
        .filter((l) => l && !l.startsWith('le='))
        .join(',')
      bySeries.set(key, [...(bySeries.get(key) ?? []), line])
    }
    const header = `# HELP ${family.name} ${family.help}\n# TYPE ${family.name} histogram\n`
    const metrics = [...bySeries].map(([key, series]) => {
      const bucketsLines = series.map((l) =>
        l.replace(/\{.*\}/, (m) => (m.includes('le=') ? `{${/le="[^"]*"/.exec(m)?.[0]}}` : '')),
      )
      const [parsed] = parsePrometheusTextFormat(`${header}${bucketsLines.join('\n')}\n`)
      const labels = Object.fromEntries(
        [...key.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] as string, m[2] as string]),
      )
      return { ...parsed?.metrics[0], labels }
    })
    return { ...family, metrics }
  })
}

/** A Prometheus scrape of `url` (with the bearer token when given), parsed by a Prometheus text parser. */
export async function scrape(url: string, token?: string): Promise<PrometheusFamily[]> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  if (res.status !== 200) throw new Error(`scrape ${url}: ${res.status} ${await res.text()}`)
  if (!res.headers.get('content-type')?.startsWith('text/plain')) throw new Error('not the text format')
  return parseSeriesApart(await res.text())
}

const matches = (labels: Record<string, string> | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([k, v]) => labels?.[k] === v)

/** A counter's or gauge's value for these labels (0 when the series is not there yet). */
export function sample(
  families: PrometheusFamily[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.find((f) => f.name === name)
  const found = family?.metrics.find((m) => matches(m.labels, labels))
  return found ? Number(found.value) : 0
}

/** A histogram's count of observations for these labels (0 when the series is not there yet). */
export function observations(
  families: PrometheusFamily[],
  name: string,
  labels: Record<string, string>,
): number {
  const family = families.find((f) => f.name === name)
  if (family && family.type !== 'HISTOGRAM') throw new Error(`${name} is a ${family.type}`)
  const found = family?.metrics.find((m) => matches(m.labels, labels))
  return found ? Number(found.count) : 0
}
