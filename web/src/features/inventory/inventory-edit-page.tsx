import { ADDRESS_LOCKED_REASON, messages, PROPERTY_CREATED } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { errorMessage, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { openHouseLimitReached } from '../../ui/action-bar.tsx'
import { Button } from '../../ui/Button.tsx'
import { DisabledButton } from '../../ui/DisabledButton.tsx'
import { DisabledLink } from '../../ui/DisabledLink.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { useForm } from '../../ui/use-form.ts'
import { planUtilizationQueryOptions } from '../pricing/queries.ts'
import {
  blockedReason,
  InventoryStatusSelect,
  STATUS_REQUIRED,
  StatusField,
  scheduleBlockedReason,
} from './inventory-status.tsx'
import { PropertyFields } from './property-fields.tsx'
import {
  PROPERTY_REQUIRED_MESSAGES,
  PropertyForm,
  propertyInput,
  propertyValues,
  toFormErrors,
} from './property-values.ts'
import {
  inventoryItemQueryOptions,
  useDeleteInventoryMutation,
  useUpdateInventoryMutation,
} from './queries.ts'
import './inventory.css'

const routeApi = getRouteApi('/_agent/_licensed/reinventory/$reInventoryId/edit')

/**
 * SPEC /reinventory/{id}/edit 'Update Property Status'. While the saved status is 'Property Created'
 * and no open house is to come, the property may be deleted or get an open house (SPEC §4); while no
 * open house is scheduled its address may be corrected, under the same rules as a new property.
 */
export function InventoryEditPage() {
  const { reInventoryId } = routeApi.useParams()
  const { data: item } = useSuspenseQuery(inventoryItemQueryOptions(reInventoryId))
  const { data: utilization } = useSuspenseQuery(planUtilizationQueryOptions(item.owningREAgentId))
  const addressEditable = item.reInventoryOpenHouseStatus === PROPERTY_CREATED
  const form = useForm(() => ({
    ...propertyValues(item.reProperty),
    reInventoryPropertyStatus: item.reInventoryPropertyStatus,
  }))
  const update = useUpdateInventoryMutation(item.owningREAgentId, item.id)
  const remove = useDeleteInventoryMutation(item.owningREAgentId)
  const [confirming, setConfirming] = useState(false)
  const [deleteError, setDeleteError] = useState<string | null>(null)
  const navigate = useNavigate()
  const blocked = blockedReason(item)
  const scheduleReason =
    scheduleBlockedReason(item) ??
    (openHouseLimitReached(utilization) ? messages.upgradePlanToCreateOpenHouses : null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const { reInventoryPropertyStatus, ...property } = form.values
    const status = { reInventoryPropertyStatus: reInventoryPropertyStatus || undefined }
    const required = { ...PROPERTY_REQUIRED_MESSAGES, reInventoryPropertyStatus: STATUS_REQUIRED }
    const body = addressEditable
      ? form.parse(PropertyForm.and(StatusField), { ...propertyInput(property), ...status }, required)
      : form.parse(StatusField, status, required)
    if (!body) return
    const { reInventoryPropertyStatus: newStatus, ...rePropertyDTO } = body
    update.mutate(
      { reInventoryPropertyStatus: newStatus, ...(addressEditable ? { rePropertyDTO } : {}) },
      {
        onSuccess: () => void navigate({ to: '/reinventory' }),
        onError: (error) => form.showError(formFailure(toFormErrors(error), messages.inventoryUpdateFailed)),
      },
    )
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
    <FormPage title="Update Property Status" lede={item.reProperty.completePropertyAddress} wide>
      <Form ref={form.formRef} onSubmit={submit} aria-label="Update Property Status">
        {form.formError && <Alert tone="error" title={form.formError} />}
        {deleteError && <Alert tone="error" title={deleteError} />}
        {addressEditable ? (
          <PropertyFields values={form.values} errors={form.errors} setValue={form.setValue} />
        ) : (
          <>
            <p className="inventory-edit__note">{ADDRESS_LOCKED_REASON}</p>
            <dl className="details">
              <div className="details__item">
                <dt>Property type</dt>
                <dd>{item.reProperty.propertyType}</dd>
              </div>
              <div className="details__item">
                <dt>County</dt>
                <dd>{item.reProperty.propertyCounty ?? '—'}</dd>
              </div>
              <div className="details__item">
                <dt>Open house</dt>
                <dd>{item.reInventoryOpenHouseStatus}</dd>
              </div>
            </dl>
          </>
        )}
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
          {blocked ? (
            <DisabledButton reason={blocked}>Delete</DisabledButton>
          ) : (
            <Button onPress={() => setConfirming(true)}>Delete</Button>
          )}
          {blocked && <p className="inventory-edit__note">{blocked}</p>}
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
