import { matchesProspectSearch, messages } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { may } from '../open-houses/permissions.ts'
import { openHouseDetailsQueryOptions } from '../open-houses/queries.ts'
import { useSessionInfo } from '../session/queries.ts'
import { ProspectCard, prospectName } from './prospect-card.tsx'
import { ProspectDetailsDialog } from './prospect-details-dialog.tsx'
import { ProspectSearchBox } from './prospect-search-box.tsx'
import { searchableProspectsQueryOptions, useAddAttendeeMutation } from './queries.ts'
import './prospects.css'

const routeApi = getRouteApi('/_agent/_licensed/prospects/search')

/**
 * SPEC /prospects/search?openHouseId=&rePropertyId=: the agent's own prospects as cards, searchable by
 * name, each with View and Add To Open House. Only the hosting agent adds attendees, and only its own
 * prospects (the server refuses anyone else's); the list holds nothing else.
 */
export function ProspectSearchPage() {
  const { openHouseId, rePropertyId } = routeApi.useSearch()
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const prospects = useQuery(searchableProspectsQueryOptions(agentId, openHouseId))
  const add = useAddAttendeeMutation()
  const openHouse = useQuery({
    ...openHouseDetailsQueryOptions(openHouseId ?? 0),
    enabled: openHouseId !== undefined,
  })
  // Known once the open house has loaded: the host of a live open house adds attendees.
  const addsAttendees =
    openHouse.data !== undefined &&
    may(openHouse.data, 'manageAttendees') &&
    !openHouse.data.openHouseCanceledFlag
  const addTo = addsAttendees ? openHouseId : undefined
  const [query, setQuery] = useState('')
  const [viewing, setViewing] = useState<number | null>(null)
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  useDocumentTitle('Prospect Search')

  const shown = (prospects.data ?? []).filter((p) => matchesProspectSearch(p, query))

  const addToOpenHouse = (prospectId: number, name: string) => {
    if (!addTo) return
    setResult(null)
    add.mutate(
      { openHouseId: addTo, prospectId },
      {
        onSuccess: ({ id }) =>
          setResult(
            id > 0
              ? { tone: 'success', text: `${name} was added to the open house as an attendee.` }
              : { tone: 'error', text: messages.addAttendeeFailed },
          ),
        onError: () => setResult({ tone: 'error', text: messages.addAttendeeFailed }),
      },
    )
  }

  return (
    <section className="page prospects" aria-labelledby="prospect-search-title">
      <header className="prospects__header">
        <div>
          <p className="eyebrow">Prospects</p>
          <h1 id="prospect-search-title">Prospect Search</h1>
          {agent && (
            <p className="prospects__agent">
              {agent.reAgentFirstName} {agent.reAgentLastName} · {agent.reAgentBrokerFirmName}
            </p>
          )}
        </div>
        <div className="prospects__actions">
          {openHouseId && (
            <Link
              to="/openhouses/schedule/$openHouseId/manage"
              params={{ openHouseId }}
              search={{ rePropertyId }}
              variant="button-secondary"
            >
              Back To Manage Open House
            </Link>
          )}
          <Link
            to="/prospects/new"
            search={addTo ? { openHouseId: addTo, rePropertyId } : {}}
            variant="button-primary"
          >
            Add New Prospect
          </Link>
        </div>
      </header>

      {openHouseId !== undefined && openHouse.data && !addsAttendees && (
        <Alert
          tone="info"
          title={
            openHouse.data.openHouseCanceledFlag
              ? 'This open house is canceled: no attendees can be added.'
              : 'Only the hosting agent adds attendees to this open house.'
          }
        />
      )}
      {openHouseId !== undefined && openHouse.isError && (
        <Alert tone="error" title={errorMessage(openHouse.error, 'This open house could not be loaded.')} />
      )}
      {addTo !== undefined && (
        <p className="prospects__hint">Only your own prospects are listed: you add them as attendees.</p>
      )}
      <ProspectSearchBox value={query} onChange={setQuery} />
      {result && <Alert tone={result.tone} title={result.text} />}

      {prospects.isPending ? (
        <Spinner label="Loading your prospects…" />
      ) : prospects.isError ? (
        <Alert
          tone="error"
          title={errorMessage(prospects.error, 'Your prospects could not be loaded.')}
          actions={<Button onPress={() => void prospects.refetch()}>Try again</Button>}
        />
      ) : prospects.data.length === 0 ? (
        <div className="empty-state">
          <p>There are no prospects in your database to add to this open house. Add a new prospect first.</p>
        </div>
      ) : shown.length === 0 ? (
        <div className="empty-state">
          <p>No prospect's first or last name matches “{query.trim()}”. Clear the search to see them all.</p>
        </div>
      ) : (
        <ul className="prospect-grid" aria-label="Prospects">
          {shown.map((p) => (
            <li key={p.id}>
              <ProspectCard
                prospect={p}
                actions={
                  <>
                    <Button size="sm" onPress={() => setViewing(p.id)}>
                      View<span className="visually-hidden"> {prospectName(p)}</span>
                    </Button>
                    {addTo !== undefined && (
                      <Button
                        size="sm"
                        variant="primary"
                        onPress={() => addToOpenHouse(p.id, prospectName(p))}
                        isPending={add.isPending && add.variables?.prospectId === p.id}
                      >
                        Add To Open House<span className="visually-hidden"> {prospectName(p)}</span>
                      </Button>
                    )}
                  </>
                }
              />
            </li>
          ))}
        </ul>
      )}
      <ProspectDetailsDialog prospectId={viewing} onClose={() => setViewing(null)} />
    </section>
  )
}
