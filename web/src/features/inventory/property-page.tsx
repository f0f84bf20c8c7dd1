import { isSchedulerRole, messages, PROPERTY_CREATED } from '@porchlight/shared'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { useForm } from '../../ui/use-form.ts'
import { useSessionInfo } from '../session/queries.ts'
import { PropertyFields } from './property-fields.tsx'
import {
  emptyPropertyValues,
  PROPERTY_REQUIRED_MESSAGES,
  PropertyForm,
  propertyInput,
  toFormErrors,
} from './property-values.ts'
import { useCreateInventoryMutation, useCreatePropertyMutation } from './queries.ts'
import { useGoBack } from './use-go-back.ts'
import './inventory.css'

/**
 * SPEC /openhouses/property (and /dashboard/property): the property search form. Next adds the
 * property to the agent's inventory as 'Property Created' and goes on to schedule its open house.
 * A Team Lead or Admin Team Member schedules for a teammate: the property is saved in nobody's
 * inventory and joins the listing agent's when the open house is saved (the server refuses one from
 * the scheduler's own inventory).
 */
export function PropertyPage({ from }: { from: '/openhouses' | '/dashboard' }) {
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const forTeammate = isSchedulerRole(agent?.reAgentRole ?? '')
  const form = useForm(emptyPropertyValues)
  const create = useCreateInventoryMutation(agentId)
  const createProperty = useCreatePropertyMutation()
  const navigate = useNavigate()
  const back = useGoBack(from)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const property = form.parse(PropertyForm, propertyInput(form.values), PROPERTY_REQUIRED_MESSAGES)
    if (!property) return
    if (forTeammate) {
      createProperty.mutate(property, {
        onSuccess: (saved) =>
          void navigate({ to: '/openhouses/schedule', search: { rePropertyId: saved.id } }),
        onError: (error) => form.showError(formFailure(toFormErrors(error), messages.propertySaveFailed)),
      })
      return
    }
    create.mutate(
      { owningREAgentId: agentId, rePropertyDTO: property, reInventoryPropertyStatus: PROPERTY_CREATED },
      {
        onSuccess: (item) =>
          void navigate({
            to: '/openhouses/schedule',
            search: { rePropertyId: item.reProperty.id, fromPage: 'REInventoryView', reInventoryId: item.id },
          }),
        onError: (error) => form.showError(formFailure(toFormErrors(error), messages.propertySaveFailed)),
      },
    )
  }

  return (
    <FormPage
      title="Add Property"
      eyebrow="Schedule Open House · Step 1 of 2"
      lede={
        forTeammate
          ? "Find the property's address, check the details, then choose Next and pick the agent you schedule its open house for. The property joins their inventory when you save the open house."
          : "Find the property's address, check the details, then choose Next to schedule its open house."
      }
      wide
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Property search">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <PropertyFields values={form.values} errors={form.errors} setValue={form.setValue} />
        <FormActions>
          <Button onPress={back}>Cancel</Button>
          <Button type="submit" variant="primary" isPending={create.isPending || createProperty.isPending}>
            {create.isPending || createProperty.isPending ? 'Submitting...' : 'Next'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
