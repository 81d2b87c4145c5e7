import type { Db } from '@studioshot/db';
import nodemailer from 'nodemailer';
import type { Logger } from '@studioshot/observability';

export interface Email {
  to: string;
  subject: string;
  text: string;
  kind: string;
}

export interface Mailer {
  /** 'outbox' keeps mail in the database only (local and test use); 'smtp' also delivers it. */
  readonly transport: 'outbox' | 'smtp';
  send(email: Email): Promise<void>;
}

/** Every e-mail is recorded in outbox_emails; with SMTP configured it is also delivered. */
export function createMailer(options: {
  db: Db;
  logger: Logger;
  transport: 'outbox' | 'smtp';
  smtpUrl?: string;
  from: string;
}): Mailer {
  const smtp =
    options.transport === 'smtp' && options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : undefined;
  return {
    transport: options.transport,
    async send(email) {
      const row = await options.db
        .insertInto('outbox_emails')
        .values({
          to_email: email.to,
          subject: email.subject,
          body_text: email.text,
          kind: email.kind,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!smtp) {
        options.logger.info({ emailId: row.id, kind: email.kind }, 'e-mail written to the outbox');
        return;
      }
      // Delivery happens after the answer: a slow or failing SMTP server must not change how
      // (or how fast) forgot-password answers. The outbox row keeps what still needs sending.
      void smtp
        .sendMail({ from: options.from, to: email.to, subject: email.subject, text: email.text })
        .then(() =>
          options.db
            .updateTable('outbox_emails')
            .set({ sent_at: new Date() })
            .where('id', '=', row.id)
            .execute(),
        )
        .catch((error: unknown) =>
          options.logger.error({ err: error, emailId: row.id }, 'e-mail delivery failed'),
        );
    },
  };
}
