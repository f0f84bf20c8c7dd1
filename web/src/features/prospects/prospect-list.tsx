import type { Prospect } from '@porchlight/shared'
import { Button } from '../../ui/Button.tsx'
import { formatDate } from '../../ui/format.ts'
import { Link } from '../../ui/Link.tsx'
import type { ListView } from '../../ui/list-toolbar.tsx'
import { ProspectCard, prospectName } from './prospect-card.tsx'

interface ProspectListProps {
  prospects: Prospect[]
  view: ListView
  onView: (id: number) => void
}

/** A page of the agent's prospects as cards (grid) or as a table (list). */
export function ProspectList({ prospects, view, onView }: ProspectListProps) {
  const actions = (p: Prospect) => (
    <>
      <Button size="sm" onPress={() => onView(p.id)}>
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

  if (view === 'grid') {
    return (
      <ul className="prospect-grid" aria-label="Prospects">
        {prospects.map((p) => (
          <li key={p.id}>
            <ProspectCard prospect={p} actions={actions(p)} />
          </li>
        ))}
      </ul>
    )
  }
  return (
    <div className="prospect-table-wrap">
      <table className="prospect-table">
        <caption className="visually-hidden">Prospects</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
            <th scope="col">Stage</th>
            <th scope="col">Next Follow-up</th>
            <th scope="col">Realtor</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {prospects.map((p) => (
            <tr key={p.id}>
              <th scope="row">{prospectName(p)}</th>
              <td>{p.prospectEmailId}</td>
              <td>{p.prospectPhoneNumber}</td>
              <td>{p.prospectStage ?? '—'}</td>
              <td>{formatDate(p.nextFollowUpDate)}</td>
              <td>
                {p.workingWithREAgentFlag === null ? 'Not said' : p.workingWithREAgentFlag ? 'Yes' : 'No'}
              </td>
              <td>
                <div className="prospect-card__actions">{actions(p)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
