import { type CalendarDate, parseDate } from '@internationalized/date'
import {
  PROSPECT_STAGES,
  type Prospect,
  type ProspectStage,
  UpdateProspectFollowUpBody,
} from '@porchlight/shared'
import { useState } from 'react'
import { formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { DatePicker } from '../../ui/DatePicker.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { useForm } from '../../ui/use-form.ts'
import { useUpdateFollowUpMutation } from './queries.ts'

interface FollowUpValues extends Record<string, unknown> {
  prospectStage: ProspectStage
  nextFollowUpDate: CalendarDate | null
}

/** The owner's stage for the lead and the date of its next follow-up (the dashboard lists those due). */
export function ProspectFollowUp({ prospect }: { prospect: Prospect }) {
  const save = useUpdateFollowUpMutation(prospect.id)
  const [saved, setSaved] = useState(false)
  const form = useForm<FollowUpValues>(() => ({
    prospectStage: prospect.prospectStage ?? 'New',
    nextFollowUpDate: prospect.nextFollowUpDate ? parseDate(prospect.nextFollowUpDate) : null,
  }))

  const submit = () => {
    setSaved(false)
    const body = form.parse(UpdateProspectFollowUpBody, {
      prospectStage: form.values.prospectStage,
      nextFollowUpDate: form.values.nextFollowUpDate?.toString() ?? null,
    })
    if (!body) return
    save.mutate(body, {
      onSuccess: () => setSaved(true),
      onError: (error) =>
        form.showError(formFailure(error, "The follow-up couldn't be saved. Please try again.")),
    })
  }

  return (
    <section className="prospect-follow-up" aria-labelledby="prospect-follow-up-title">
      <h3 id="prospect-follow-up-title">Stage And Follow-up</h3>
      <Form
        ref={form.formRef}
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        {form.formError && <Alert tone="error" title={form.formError} />}
        <div className="prospect-follow-up__fields">
          <Select
            label="Stage"
            name="prospectStage"
            value={form.values.prospectStage}
            onChange={(key) => {
              setSaved(false)
              if (PROSPECT_STAGES.includes(key as ProspectStage))
                form.setValue('prospectStage', key as ProspectStage)
            }}
            errorMessage={form.errors.prospectStage}
          >
            {PROSPECT_STAGES.map((stage) => (
              <SelectItem key={stage} id={stage}>
                {stage}
              </SelectItem>
            ))}
          </Select>
          <DatePicker
            label="Next Follow-up"
            name="nextFollowUpDate"
            value={form.values.nextFollowUpDate}
            onChange={(date) => {
              setSaved(false)
              form.setValue('nextFollowUpDate', date)
            }}
            errorMessage={form.errors.nextFollowUpDate}
            description="Leave empty for no follow-up."
          />
        </div>
        <FormActions>
          {form.values.nextFollowUpDate && (
            <Button
              onPress={() => {
                setSaved(false)
                form.setValue('nextFollowUpDate', null)
              }}
            >
              Clear Date
            </Button>
          )}
          <Button type="submit" variant="primary" isPending={save.isPending}>
            {save.isPending ? 'Updating...' : 'Update'}
          </Button>
        </FormActions>
        <p className="prospect-follow-up__saved" role="status">
          {saved ? 'Stage and follow-up saved.' : ''}
        </p>
      </Form>
    </section>
  )
}
