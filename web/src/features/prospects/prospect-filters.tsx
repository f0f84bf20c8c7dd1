import { HOME_BUYING_TIMELINES, PROSPECT_STAGES, type ProspectSort } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Button } from '../../ui/Button.tsx'
import { Checkbox } from '../../ui/Checkbox.tsx'
import { formatDate } from '../../ui/format.ts'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { ProspectSearchBox } from './prospect-search-box.tsx'
import { prospectOpenHousesQueryOptions } from './queries.ts'
import type { ProspectListSearch } from './search.ts'

const SORTS: Array<[ProspectSort, string]> = [
  ['newest', 'Newest first'],
  ['name', 'Name (last, first)'],
  ['followUp', 'Next follow-up'],
]
/** A select's "no filter" choice. */
const ANY = 'any'

interface ProspectFiltersProps {
  agentId: number
  search: ProspectListSearch
  /** A change of filter or sort starts again at page 1. */
  onChange: (next: Partial<ProspectListSearch>) => void
}

/** The list's search, sort and filters (issue 13): no realtor, timeline, stage and open house. */
export function ProspectFilters({ agentId, search, onChange }: ProspectFiltersProps) {
  const openHouses = useQuery(prospectOpenHousesQueryOptions(agentId))
  // The typed name goes to the address (and the server) once typing pauses.
  const [typed, setTyped] = useState(search.q ?? '')
  useEffect(() => setTyped(search.q ?? ''), [search.q])
  useEffect(() => {
    if (typed === (search.q ?? '')) return
    const timer = setTimeout(() => onChange({ q: typed || undefined }), 300)
    return () => clearTimeout(timer)
  }, [typed, search.q, onChange])

  const filtered = Boolean(
    search.noRealtor || search.timeline || search.stage || search.openHouseId || search.q,
  )
  const choice = <T extends string>(key: unknown, all: readonly T[]): T | undefined =>
    all.includes(key as T) ? (key as T) : undefined

  return (
    <search className="prospect-filters" aria-label="Find and filter prospects">
      <ProspectSearchBox value={typed} onChange={setTyped} />
      <div className="prospect-filters__row">
        <Select
          label="Sort By"
          value={search.sort ?? 'newest'}
          onChange={(key) => onChange({ sort: choice(key, ['newest', 'name', 'followUp'] as const) })}
        >
          {SORTS.map(([id, label]) => (
            <SelectItem key={id} id={id}>
              {label}
            </SelectItem>
          ))}
        </Select>
        <Select
          label="Stage"
          value={search.stage ?? ANY}
          onChange={(key) => onChange({ stage: choice(key, PROSPECT_STAGES) })}
        >
          <SelectItem id={ANY}>Any stage</SelectItem>
          {PROSPECT_STAGES.map((stage) => (
            <SelectItem key={stage} id={stage}>
              {stage}
            </SelectItem>
          ))}
        </Select>
        <Select
          label="Home Buying Timeline"
          value={search.timeline ?? ANY}
          onChange={(key) => onChange({ timeline: choice(key, HOME_BUYING_TIMELINES) })}
        >
          <SelectItem id={ANY}>Any timeline</SelectItem>
          {HOME_BUYING_TIMELINES.map((timeline) => (
            <SelectItem key={timeline} id={timeline}>
              {timeline}
            </SelectItem>
          ))}
        </Select>
        <Select
          label="Open House"
          value={search.openHouseId ? String(search.openHouseId) : ANY}
          onChange={(key) => onChange({ openHouseId: key && key !== ANY ? Number(key) : undefined })}
          description={openHouses.isError ? 'Your open houses could not be loaded.' : undefined}
        >
          <SelectItem id={ANY}>Any open house</SelectItem>
          {(openHouses.data ?? []).map((oh) => (
            <SelectItem key={oh.openHouseId} id={String(oh.openHouseId)}>
              {`${oh.propertyAddress} (${oh.scheduledDate ? formatDate(oh.scheduledDate) : 'Pick your own date'})`}
            </SelectItem>
          ))}
        </Select>
      </div>
      <div className="prospect-filters__row prospect-filters__row--end">
        <Checkbox
          isSelected={search.noRealtor ?? false}
          onChange={(on) => onChange({ noRealtor: on || undefined })}
        >
          No realtor (Leads Without Realtor only)
        </Checkbox>
        {filtered && (
          <Button
            size="sm"
            variant="ghost"
            onPress={() =>
              onChange({
                q: undefined,
                noRealtor: undefined,
                timeline: undefined,
                stage: undefined,
                openHouseId: undefined,
              })
            }
          >
            Clear filters
          </Button>
        )}
      </div>
    </search>
  )
}
