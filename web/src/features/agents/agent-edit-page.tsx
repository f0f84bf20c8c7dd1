import { UpdateAgentBody } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { AgentFields, agentSaveFailed } from './agent-form.tsx'
import {
  AGENT_REQUIRED_MESSAGES,
  agentInput,
  agentValues,
  licenseErrors,
  licenseExempt,
} from './agent-values.ts'
import { agentQueryOptions, useUpdateAgentMutation } from './queries.ts'

const routeApi = getRouteApi('/_agent/_licensed/mystuff/$reAgentId/edit')

/** SPEC §5: the zip is required unless the role is Admin Team Member, on edit as at signup. */
const agentEdit = (exempt: boolean) =>
  UpdateAgentBody.superRefine((agent, ctx) => {
    if (!exempt && !agent.reAgentResidenceZipCode) {
      ctx.addIssue({
        code: 'custom',
        path: ['reAgentResidenceZipCode'],
        message: 'Residence zip code is required',
      })
    }
  })

/** SPEC 'Real Estate Agent Details' (/mystuff/{reAgentId}/edit): Cancel and Update/Updating... */
export function AgentEditPage() {
  const { reAgentId } = routeApi.useParams()
  const { data: agent } = useSuspenseQuery(agentQueryOptions(reAgentId))
  const navigate = useNavigate()
  const update = useUpdateAgentMutation(reAgentId)
  const form = useForm(() => agentValues(agent))
  const exempt = licenseExempt(form.values, agent)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(
      agentEdit(exempt),
      agentInput(form.values),
      AGENT_REQUIRED_MESSAGES,
      licenseErrors(form.values, 'edit', exempt),
    )
    if (!body) return
    update.mutate(body, {
      onSuccess: () => void navigate({ to: '/mystuff' }),
      onError: (error) => agentSaveFailed(error, form, () => void navigate({ to: '/signin' })),
    })
  }

  return (
    <FormPage
      title="Real Estate Agent Details"
      lede="Licensed state, license number, broker firm details and email Id can't be changed here."
      wide
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Real Estate Agent Details">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <AgentFields
          values={form.values}
          errors={form.errors}
          setValue={form.setValue}
          mode="edit"
          licenseExempt={exempt}
        />
        <FormActions>
          <Link to="/mystuff" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
