import { AddProspectNoteBody, PROSPECT_NOTE_MAX_LENGTH } from '@porchlight/shared'
import { useQuery } from '@tanstack/react-query'
import { errorMessage, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { Spinner } from '../../ui/Spinner.tsx'
import { TextArea } from '../../ui/TextArea.tsx'
import { useForm } from '../../ui/use-form.ts'
import { prospectNotesQueryOptions, useAddProspectNoteMutation } from './queries.ts'

const noteTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  })

/** The owner's dated notes on its prospect, newest first, and the form that adds one. */
export function ProspectNotes({ prospectId }: { prospectId: number }) {
  const notes = useQuery(prospectNotesQueryOptions(prospectId))
  const add = useAddProspectNoteMutation(prospectId)
  const form = useForm({ noteText: '' })
  const left = PROSPECT_NOTE_MAX_LENGTH - form.values.noteText.length

  const submit = () => {
    const body = form.parse(AddProspectNoteBody)
    if (!body) return
    add.mutate(body, {
      // Only a saved note clears the box: after a failure what was typed stays for another try.
      onSuccess: () => form.setValue('noteText', ''),
      onError: (error) => form.showError(formFailure(error, "The note couldn't be saved. Please try again.")),
    })
  }

  return (
    <section className="prospect-notes" aria-labelledby="prospect-notes-title">
      <h3 id="prospect-notes-title">Notes</h3>
      <Form
        ref={form.formRef}
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
        className="prospect-notes__form"
      >
        {form.formError && <Alert tone="error" title={form.formError} />}
        <TextArea
          label="New Note"
          name="noteText"
          rows={3}
          value={form.values.noteText}
          onChange={(value) => form.setValue('noteText', value)}
          errorMessage={form.errors.noteText}
          description={`${left} characters left`}
        />
        <FormActions>
          <Button type="submit" variant="primary" isPending={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add Note'}
          </Button>
        </FormActions>
      </Form>
      {notes.isPending ? (
        <Spinner label="Loading the notes…" />
      ) : notes.isError ? (
        <Alert
          tone="error"
          title={errorMessage(notes.error, 'The notes could not be loaded.')}
          actions={<Button onPress={() => void notes.refetch()}>Try again</Button>}
        />
      ) : notes.data.length === 0 ? (
        <p className="prospect-notes__empty">No notes yet. Add what you learned at your last contact.</p>
      ) : (
        <ol className="prospect-notes__list" aria-label="Notes, newest first">
          {notes.data.map((note) => (
            <li key={note.id} className="prospect-notes__item">
              <time dateTime={note.createdDate} className="prospect-notes__time">
                {noteTime(note.createdDate)}
              </time>
              <p className="prospect-notes__text">{note.noteText}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
