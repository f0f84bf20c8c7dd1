import { messages } from '@porchlight/shared'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { useForm } from '../../ui/use-form.ts'
import { useSessionInfo } from '../session/queries.ts'
import { InventoryStatusSelect, STATUS_REQUIRED, StatusField } from './inventory-status.tsx'
import { PropertyFields } from './property-fields.tsx'
import {
  emptyPropertyValues,
  PROPERTY_REQUIRED_MESSAGES,
  PropertyForm,
  propertyInput,
  toFormErrors,
} from './property-values.ts'
import { useCreateInventoryMutation } from './queries.ts'
import './inventory.css'

/** SPEC /reinventory/new 'Add Property To My Inventory': the property and its status (SPEC §5). */
export function InventoryNewPage() {
  const { agent } = useSessionInfo()
  const agentId = agent?.id ?? 0
  const form = useForm(() => ({ ...emptyPropertyValues(), reInventoryPropertyStatus: '' }))
  const create = useCreateInventoryMutation(agentId)
  const navigate = useNavigate()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const { reInventoryPropertyStatus, ...property } = form.values
    const parsed = form.parse(
      PropertyForm.and(StatusField),
      { ...propertyInput(property), reInventoryPropertyStatus: reInventoryPropertyStatus || undefined },
      { ...PROPERTY_REQUIRED_MESSAGES, reInventoryPropertyStatus: STATUS_REQUIRED },
    )
    if (!parsed) return
    const { reInventoryPropertyStatus: status, ...rePropertyDTO } = parsed
    create.mutate(
      { owningREAgentId: agentId, rePropertyDTO, reInventoryPropertyStatus: status },
      {
        onSuccess: () => void navigate({ to: '/reinventory' }),
        onError: (error) => form.showError(formFailure(toFormErrors(error), messages.propertySaveFailed)),
      },
    )
  }

  return (
    <FormPage
      title="Add Property To My Inventory"
      lede="Keep the property in your inventory; schedule its open house whenever you are ready."
      wide
    >
      <Form ref={form.formRef} onSubmit={submit} aria-label="Add Property To My Inventory">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <PropertyFields values={form.values} errors={form.errors} setValue={form.setValue} />
        <fieldset className="form__section">
          <legend className="form__legend">Status</legend>
          <div className="form__grid">
            <InventoryStatusSelect
              value={form.values.reInventoryPropertyStatus}
              onChange={(value) => form.setValue('reInventoryPropertyStatus', value)}
              errorMessage={form.errors.reInventoryPropertyStatus}
            />
          </div>
        </fieldset>
        <FormActions>
          <Link to="/reinventory" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={create.isPending}>
            {create.isPending ? 'Submitting...' : 'Save'}
          </Button>
        </FormActions>
      </Form>
    </FormPage>
  )
}
