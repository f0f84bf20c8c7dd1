import { CreateAgentBody } from '@porchlight/shared'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { useSessionInfo } from '../session/queries.ts'
import { AgentFields, agentSaveFailed } from './agent-form.tsx'
import { AGENT_REQUIRED_MESSAGES, agentInput, emptyAgentValues, licenseErrors } from './agent-values.ts'
import { useCreateAgentMutation } from './queries.ts'

/** SPEC 'Real Estate Agent Signup' at /new and /mystuff/new; success goes to the pricing plans. */
export function AgentSignupPage() {
  const { user } = useSessionInfo()
  const navigate = useNavigate()
  const create = useCreateAgentMutation()
  const form = useForm(() => emptyAgentValues(user.porchlightUserEmailId))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(
      CreateAgentBody,
      // The email is the session user's, read-only (SPEC §4), whatever the form holds.
      { ...agentInput(form.values), reAgentEmailId: user.porchlightUserEmailId, porchlightUserId: user.id },
      AGENT_REQUIRED_MESSAGES,
      licenseErrors(form.values, 'create'),
    )
    if (!body) return
    create.mutate(body, {
      onSuccess: (agent) => void navigate({ to: '/pricingplans', search: { reAgentId: agent.id } }),
      onError: (error) => agentSaveFailed(error, form, () => void navigate({ to: '/signin' })),
    })
  }

  return (
    <FormPage
      title="Real Estate Agent Signup"
      lede="Tell us about you and your brokerage. Fields marked * are required."
      wide
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Real Estate Agent Signup">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <AgentFields values={form.values} errors={form.errors} setValue={form.setValue} mode="create" />
        <FormActions>
          <Link to="/signin" variant="button-secondary">
            Sign In
          </Link>
          <Button type="submit" variant="primary" isPending={create.isPending}>
            {create.isPending ? 'Submitting...' : 'Create Real Estate Agent Profile'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
