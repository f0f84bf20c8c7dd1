import { messages, PROPERTY_CREATED } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { errorMessage, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { DisabledLink } from '../../ui/DisabledLink.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Link } from '../../ui/Link.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { useForm } from '../../ui/use-form.ts'
import { openHouseLimitReached } from '../dashboard/action-bar.tsx'
import { FormPage } from '../layout/form-page.tsx'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import { InventoryStatusSelect, STATUS_REQUIRED, StatusField } from './inventory-status.tsx'
import {
  inventoryItemQueryOptions,
  useDeleteInventoryMutation,
  useUpdateInventoryMutation,
} from './queries.ts'
import './inventory.css'

const routeApi = getRouteApi('/_agent/_licensed/reinventory/$reInventoryId/edit')

const NOT_CREATED_REASON = `Only a property with the status '${PROPERTY_CREATED}' can be deleted or scheduled.`

/**
 * SPEC /reinventory/{id}/edit 'Update Property Status'. While the saved status is 'Property Created'
 * the property may be deleted or get an open house; any other status disables both (SPEC §4).
 */
export function InventoryEditPage() {
  const { reInventoryId } = routeApi.useParams()
  const { data: item } = useSuspenseQuery(inventoryItemQueryOptions(reInventoryId))
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(item.owningREAgentId))
  const form = useForm({ reInventoryPropertyStatus: item.reInventoryPropertyStatus })
  const update = useUpdateInventoryMutation(item.owningREAgentId, item.id)
  const remove = useDeleteInventoryMutation(item.owningREAgentId)
  const [confirming, setConfirming] = useState(false)
  const [deleteError, setDeleteError] = useState<string | null>(null)
  const navigate = useNavigate()
  const created = item.reInventoryPropertyStatus === PROPERTY_CREATED
  const scheduleReason = !created
    ? NOT_CREATED_REASON
    : openHouseLimitReached(utilization)
      ? messages.upgradePlanToCreateOpenHouses
      : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(StatusField, undefined, { reInventoryPropertyStatus: STATUS_REQUIRED })
    if (!body) return
    update.mutate(body, {
      onSuccess: () => void navigate({ to: '/reinventory' }),
      onError: (error) => form.showError(formFailure(error, messages.inventoryUpdateFailed)),
    })
  }

  const confirmDelete = () =>
    remove.mutate(item.id, {
      onSuccess: () => void navigate({ to: '/reinventory' }),
      onError: (error) => {
        setConfirming(false)
        setDeleteError(errorMessage(error, messages.inventoryDeleteFailed))
      },
    })

  return (
    <FormPage title="Update Property Status" lede={item.reProperty.completePropertyAddress}>
      <Form ref={form.formRef} onSubmit={submit} aria-label="Update Property Status">
        {form.formError && <Alert tone="error" title={form.formError} />}
        {deleteError && <Alert tone="error" title={deleteError} />}
        <dl className="details">
          <div className="details__item">
            <dt>Property type</dt>
            <dd>{item.reProperty.propertyType}</dd>
          </div>
          <div className="details__item">
            <dt>County</dt>
            <dd>{item.reProperty.propertyCounty ?? '—'}</dd>
          </div>
        </dl>
        <InventoryStatusSelect
          value={form.values.reInventoryPropertyStatus}
          onChange={(value) => form.setValue('reInventoryPropertyStatus', value)}
          errorMessage={form.errors.reInventoryPropertyStatus}
        />
        <div className="inventory-edit__more">
          {scheduleReason ? (
            <DisabledLink variant="button-secondary" reason={scheduleReason}>
              Schedule Open House
            </DisabledLink>
          ) : (
            <Link
              to="/openhouses/schedule"
              search={{
                rePropertyId: item.reProperty.id,
                fromPage: 'REInventoryView',
                reInventoryId: item.id,
              }}
              variant="button-secondary"
            >
              Schedule Open House
            </Link>
          )}
          {created ? (
            <Button onPress={() => setConfirming(true)}>Delete</Button>
          ) : (
            <DisabledButton reason={NOT_CREATED_REASON}>Delete</DisabledButton>
          )}
        </div>
        <FormActions>
          <Link to="/reinventory" variant="button-secondary">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update'}
          </Button>
        </FormActions>
      </Form>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title="Delete this property?"
        confirmLabel="Yes, delete"
        onConfirm={confirmDelete}
        isPending={remove.isPending}
      >
        <p>Are you sure you want to delete {item.reProperty.completePropertyAddress} from your inventory?</p>
      </ConfirmDialog>
    </FormPage>
  )
}
