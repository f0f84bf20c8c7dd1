import { useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useCallback, useState } from 'react'
import { errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Link } from '../../ui/Link.tsx'
import { ListToolbar, type ListView } from '../../ui/list-toolbar.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { NARROW_SCREEN, useMediaQuery } from '../../ui/use-media-query.ts'
import { useSessionInfo } from '../session/queries.ts'
import { ProspectDetailsDialog } from './prospect-details-dialog.tsx'
import { ProspectFilters } from './prospect-filters.tsx'
import { ProspectList } from './prospect-list.tsx'
import { ProspectPager } from './prospect-pager.tsx'
import { downloadProspects, ownProspectPageQueryOptions } from './queries.ts'
import { type ProspectListSearch, pageOf } from './search.ts'
import '../../ui/card-list.css'
import './prospects.css'

const routeApi = getRouteApi('/_agent/_licensed/prospects/')

/**
 * SPEC /prospects as a small CRM (issue 13): the agent's own prospects sorted, filtered and paged by
 * the server, List/Grid, the details with stage, follow-up and notes, and the CSV of what is filtered.
 */
export function ProspectsPage() {
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { page, size } = pageOf(search)
  const prospects = useQuery(ownProspectPageQueryOptions(agentId, search))
  const narrow = useMediaQuery(NARROW_SCREEN)
  const [view, setView] = useState<ListView>('grid')
  const [viewing, setViewing] = useState<number | null>(null)
  const [exporting, setExporting] = useState<'csv' | 'vcf' | null>(null)
  const [exportError, setExportError] = useState<string | null>(null)
  useDocumentTitle('Prospects')

  // A new filter or sort shows its first page; a page turn keeps the filters.
  const filter = useCallback(
    (next: Partial<ProspectListSearch>) =>
      void navigate({ search: (prev) => ({ ...prev, ...next, page: undefined }), replace: true }),
    [navigate],
  )
  const turnTo = (next: Partial<ProspectListSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...next }) })

  const total = prospects.data?.total ?? 0
  const filtered = Boolean(
    search.noRealtor || search.timeline || search.stage || search.openHouseId || search.q,
  )
  const exportAs = async (as: 'csv' | 'vcf') => {
    setExporting(as)
    setExportError(null)
    try {
      await downloadProspects(agentId, search, as)
    } catch (error) {
      setExportError(errorMessage(error, 'The export could not be made. Please try again.'))
    } finally {
      setExporting(null)
    }
  }

  return (
    <section className="page prospects" aria-labelledby="prospects-title">
      <header className="prospects__header">
        <div>
          <p className="eyebrow">Leads</p>
          <h1 id="prospects-title">Prospects</h1>
        </div>
        <div className="prospects__actions">
          <Button
            onPress={() => void exportAs('csv')}
            isPending={exporting === 'csv'}
            isDisabled={total === 0 || exporting !== null}
          >
            {filtered ? 'Export Filtered CSV' : 'Export CSV'}
          </Button>
          <Button
            onPress={() => void exportAs('vcf')}
            isPending={exporting === 'vcf'}
            isDisabled={total === 0 || exporting !== null}
          >
            {filtered ? 'Export Filtered vCards' : 'Export vCards'}
          </Button>
          <Link to="/prospects/new" variant="button-primary">
            Add New Prospect
          </Link>
        </div>
      </header>
      {exportError && <Alert tone="error" title={exportError} />}
      <ProspectFilters agentId={agentId} search={search} onChange={filter} />

      {prospects.isPending ? (
        <Spinner label="Loading your prospects…" />
      ) : prospects.isError ? (
        <Alert
          tone="error"
          title={errorMessage(prospects.error, 'Your prospects could not be loaded.')}
          actions={<Button onPress={() => void prospects.refetch()}>Try again</Button>}
        />
      ) : (
        <div className="oh-list" aria-busy={prospects.isPlaceholderData}>
          <ListToolbar
            count={total}
            noun={['prospect', 'prospects']}
            view={narrow ? 'grid' : view}
            onViewChange={setView}
            showViewToggle={!narrow}
            onRefresh={() => prospects.refetch()}
          />
          {prospects.isPlaceholderData && <Spinner label="Loading…" />}
          {total === 0 ? (
            <div className="empty-state">
              {filtered ? (
                <p>No prospect matches these filters. Clear a filter to see more.</p>
              ) : (
                <p>
                  You have no prospects yet. Guests who sign in at your open houses appear here, or add one
                  yourself.
                </p>
              )}
            </div>
          ) : prospects.data.data.length === 0 ? (
            // A page past the end (the list shrank, or an old link): say so and offer the first page.
            <div className="empty-state">
              <p>This page is past the end of the list.</p>
              <Button onPress={() => turnTo({ page: undefined })}>Go to the first page</Button>
            </div>
          ) : (
            <>
              <ProspectList
                prospects={prospects.data.data}
                view={narrow ? 'grid' : view}
                onView={setViewing}
              />
              <ProspectPager
                page={page}
                size={size}
                total={total}
                onPage={(next) => turnTo({ page: next > 1 ? next : undefined })}
                onSize={(next) => filter({ size: next === 10 ? undefined : next })}
              />
            </>
          )}
        </div>
      )}
      <ProspectDetailsDialog prospectId={viewing} onClose={() => setViewing(null)} />
    </section>
  )
}
