import { CANCEL_REASONS, CancelReason, messages } from '@porchlight/shared'
import { useSuspenseQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { z } from 'zod'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { useForm } from '../../ui/use-form.ts'
import { setFlash } from '../session/flash.ts'
import { useSessionInfo } from '../session/queries.ts'
import { OpenHouseSummary } from './open-house-summary.tsx'
import { may } from './permissions.ts'
import { openHouseDetailsQueryOptions, useCancelMutation } from './queries.ts'

const routeApi = getRouteApi('/_agent/_licensed/openhouses/schedule/$openHouseId/cancel')

const CancelForm = z.object({ openHouseCancelReason: CancelReason })

/** SPEC /openhouses/schedule/{id}/cancel: a reason (SPEC §5 list), a confirmation, then /openhouses. */
export function CancelOpenHousePage() {
  const { openHouseId } = routeApi.useParams()
  const { data: oh } = useSuspenseQuery(openHouseDetailsQueryOptions(openHouseId))
  const { agent } = useSessionInfo()
  const cancel = useCancelMutation(agent?.id ?? 0)
  const navigate = useNavigate()
  const form = useForm({ openHouseCancelReason: '' })
  const [confirming, setConfirming] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(CancelForm, undefined, {
      openHouseCancelReason: 'Cancellation reason is required',
    })
    if (body) setConfirming(true)
  }

  const confirm = () =>
    cancel.mutate(
      { openHouseId: oh.id, openHouseCancelReason: form.values.openHouseCancelReason as CancelReason },
      {
        onSuccess: () => {
          setFlash('Open house canceled.')
          void navigate({ to: '/openhouses', search: { activeSection: 'upcomingOH' } })
        },
        onError: (error) => {
          setConfirming(false)
          form.showError(formFailure(error, messages.cancelOpenHouseFailed))
        },
      },
    )

  const back = (
    <Link to="/openhouses" search={{ activeSection: 'upcomingOH' }} variant="button-secondary">
      Back
    </Link>
  )

  if (oh.openHouseCanceledFlag || !may(oh, 'cancel')) {
    return (
      <FormPage title="Cancel Open House" lede={oh.reProperty.completePropertyAddress}>
        <Alert
          tone="info"
          title={
            oh.openHouseCanceledFlag
              ? 'This open house is already canceled.'
              : 'Only the listing agent, or the teammate who scheduled it for them, can cancel this open house.'
          }
        />
        <FormActions>{back}</FormActions>
      </FormPage>
    )
  }

  return (
    <FormPage title="Cancel Open House" lede={oh.reProperty.completePropertyAddress}>
      <OpenHouseSummary oh={oh} agentId={agent?.id ?? 0} />
      <Form ref={form.formRef} onSubmit={submit} aria-label="Cancel Open House">
        {form.formError && <Alert tone="error" title={form.formError} />}
        <Select
          label="Cancellation Reason"
          name="openHouseCancelReason"
          placeholder="Select a reason"
          isRequired
          value={form.values.openHouseCancelReason || null}
          onChange={(key) => form.setValue('openHouseCancelReason', key == null ? '' : String(key))}
          errorMessage={form.errors.openHouseCancelReason}
        >
          {CANCEL_REASONS.map((reason) => (
            <SelectItem key={reason} id={reason}>
              {reason}
            </SelectItem>
          ))}
        </Select>
        <FormActions>
          {back}
          <Button type="submit" variant="primary">
            Cancel Open House
          </Button>
        </FormActions>
      </Form>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title="Cancel this open house?"
        confirmLabel="Yes, cancel it"
        onConfirm={confirm}
        isPending={cancel.isPending}
      >
        <p>
          Are you sure you want to cancel the open house at {oh.reProperty.completePropertyAddress}? The host
          and the agents it was offered to will see it canceled.
        </p>
      </ConfirmDialog>
    </FormPage>
  )
}
