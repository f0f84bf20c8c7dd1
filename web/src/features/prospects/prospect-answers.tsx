import { ProspectAnswersSchema } from '@porchlight/shared'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '../../api/client.ts'
import { CustomAnswersList } from './custom-answers-list.tsx'

/** The prospect's answers to the open houses' own questions, per visit (issue 14). */
export function prospectAnswersQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['prospects', 'customAnswers', id] as const,
    queryFn: ({ signal }) =>
      apiRequest(`/prospectmgmt/getProspectCustomAnswers/${id}`, {
        schema: z.array(ProspectAnswersSchema),
        signal,
      }),
  })
}

/** What the visitor answered at each open house the caller may see it at; nothing when it answered none. */
export function ProspectAnswers({ prospectId }: { prospectId: number }) {
  const visits = useQuery(prospectAnswersQueryOptions(prospectId))
  if (!visits.data || visits.data.length === 0) return null
  return (
    <section className="prospect-answers" aria-labelledby="prospect-answers-title">
      <h3 id="prospect-answers-title">Answers to open house questions</h3>
      {visits.data.map((v) => (
        <div key={`${v.openHouseId}-${v.signedInAt}`} className="prospect-answers__visit">
          <h4>
            {v.propertyAddress}
            {v.scheduledDate ? `, ${v.scheduledDate}` : ''}
          </h4>
          <CustomAnswersList answers={v.answers} />
        </div>
      ))}
    </section>
  )
}
