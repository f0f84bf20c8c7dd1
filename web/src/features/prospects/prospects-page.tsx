import { matchesProspectSearch } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { NARROW_SCREEN, useMediaQuery } from '../../ui/use-media-query.ts'
import { useDocumentTitle } from '../layout/use-document-title.ts'
import { ListToolbar, type ListView } from '../open-houses/list-toolbar.tsx'
import { useSessionInfo } from '../session/queries.ts'
import { ProspectCard, prospectName } from './prospect-card.tsx'
import { ProspectDetailsDialog } from './prospect-details-dialog.tsx'
import { ProspectSearchBox } from './prospect-search-box.tsx'
import { downloadProspectsCsv, ownProspectsQueryOptions } from './queries.ts'
import '../open-houses/open-houses.css'
import './prospects.css'

/** SPEC /prospects: the agent's own prospects (List/Grid), name search, CSV export. */
export function ProspectsPage() {
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const prospects = useQuery(ownProspectsQueryOptions(agentId))
  const narrow = useMediaQuery(NARROW_SCREEN)
  const [view, setView] = useState<ListView>('grid')
  const [query, setQuery] = useState('')
  const [viewing, setViewing] = useState<number | null>(null)
  const [exporting, setExporting] = useState(false)
  const [exportError, setExportError] = useState<string | null>(null)
  useDocumentTitle('Prospects')

  const shown = (prospects.data ?? []).filter((p) => matchesProspectSearch(p, query))
  const exportCsv = async () => {
    setExporting(true)
    setExportError(null)
    try {
      await downloadProspectsCsv(agentId)
    } catch (error) {
      setExportError(errorMessage(error, 'The export could not be made. Please try again.'))
    } finally {
      setExporting(false)
    }
  }

  const actions = (p: (typeof shown)[number]) => (
    <>
      <Button size="sm" onPress={() => setViewing(p.id)}>
        View<span className="visually-hidden"> {prospectName(p)}</span>
      </Button>
      <Link
        to="/prospects/$prospectId/edit"
        params={{ prospectId: p.id }}
        variant="button-secondary"
        className="link--sm"
      >
        Edit<span className="visually-hidden"> {prospectName(p)}</span>
      </Link>
    </>
  )

  return (
    <section className="page prospects" aria-labelledby="prospects-title">
      <header className="prospects__header">
        <div>
          <p className="eyebrow">Leads</p>
          <h1 id="prospects-title">Prospects</h1>
        </div>
        <div className="prospects__actions">
          <Button onPress={exportCsv} isPending={exporting} isDisabled={!prospects.data?.length}>
            Export CSV
          </Button>
          <Link to="/prospects/new" variant="button-primary">
            Add New Prospect
          </Link>
        </div>
      </header>
      {exportError && <Alert tone="error" title={exportError} />}
      <ProspectSearchBox value={query} onChange={setQuery} />

      {prospects.isPending ? (
        <Spinner label="Loading your prospects…" />
      ) : prospects.isError ? (
        <Alert
          tone="error"
          title={errorMessage(prospects.error, 'Your prospects could not be loaded.')}
          actions={<Button onPress={() => void prospects.refetch()}>Try again</Button>}
        />
      ) : (
        <div className="oh-list">
          <ListToolbar
            count={shown.length}
            noun={['prospect', 'prospects']}
            view={narrow ? 'grid' : view}
            onViewChange={setView}
            showViewToggle={!narrow}
            onRefresh={() => prospects.refetch()}
          />
          {prospects.data.length === 0 ? (
            <div className="empty-state">
              <p>
                You have no prospects yet. Guests who sign in at your open houses appear here, or add one
                yourself.
              </p>
            </div>
          ) : shown.length === 0 ? (
            <div className="empty-state">
              <p>
                No prospect's first or last name matches “{query.trim()}”. Clear the search to see them all.
              </p>
            </div>
          ) : view === 'grid' || narrow ? (
            <ul className="prospect-grid" aria-label="Prospects">
              {shown.map((p) => (
                <li key={p.id}>
                  <ProspectCard prospect={p} actions={actions(p)} />
                </li>
              ))}
            </ul>
          ) : (
            <div className="prospect-table-wrap">
              <table className="prospect-table">
                <caption className="visually-hidden">Prospects</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Phone</th>
                    <th scope="col">City</th>
                    <th scope="col">Realtor</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((p) => (
                    <tr key={p.id}>
                      <th scope="row">{prospectName(p)}</th>
                      <td>{p.prospectEmailId}</td>
                      <td>{p.prospectPhoneNumber}</td>
                      <td>{p.prospectCity ?? '—'}</td>
                      <td>{p.workingWithREAgentFlag ? 'Yes' : 'No'}</td>
                      <td>
                        <div className="prospect-card__actions">{actions(p)}</div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
      <ProspectDetailsDialog prospectId={viewing} onClose={() => setViewing(null)} />
    </section>
  )
}
