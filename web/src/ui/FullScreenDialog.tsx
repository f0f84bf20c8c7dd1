import type { ReactNode } from 'react'
import {
  Modal as AriaModal,
  Dialog,
  Heading,
  ModalOverlay,
  type ModalOverlayProps,
} from 'react-aria-components'
import { Button } from './Button.tsx'
import './FullScreenDialog.css'

export interface FullScreenDialogProps extends Pick<ModalOverlayProps, 'isOpen' | 'onOpenChange'> {
  title: ReactNode
  children: ReactNode
}

/**
 * A dialog filling the screen, for something shown to someone else (a QR code held up at the door):
 * nothing else competes with it. Escape and the large Close button close it; focus is trapped inside
 * and returns to the trigger.
 */
export function FullScreenDialog({ isOpen, onOpenChange, title, children }: FullScreenDialogProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} className="fullscreen-overlay">
      <AriaModal className="fullscreen-modal">
        <Dialog className="fullscreen-dialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="fullscreen-dialog__title">
                {title}
              </Heading>
              <div className="fullscreen-dialog__content">{children}</div>
              <Button variant="secondary" onPress={close} className="fullscreen-dialog__close">
                Close
              </Button>
            </>
          )}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  )
}
