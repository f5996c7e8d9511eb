/**
 * Bounces and complaints as they come back to a sender, shaped after real ones and cut to what
 * the reader of them looks at: Postfix's DSN (to the letter's VERP envelope sender, with the
 * returned headers), Gmail's (to the plain sender, the letter attached whole) and a mailbox
 * provider's feedback-loop report (ARF, the letter attached). CRLF line ends, as on the wire.
 */

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

/** Our letter's header block as the report returns it; without an id, no header names it. */
function letterHeaders(to: string, letterId?: string, returnPath = 'no-reply@news.example.jp') {
  return [
    `Return-Path: <${returnPath}>`,
    'From: "AXIS" <no-reply@news.example.jp>',
    `To: ${to}`,
    'Subject: =?UTF-8?B?5LuK6YCx44Gu6KiY5LqL?=',
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    ...(letterId ? [`X-Newsletter-Letter-Id: ${letterId}`] : []),
    'MIME-Version: 1.0',
  ].join('\n');
}

export type DsnSample = {
  /** Who the letter went to, as the DSN names it. */
  recipient: string;
  /** The envelope sender the DSN is delivered to (VERP or plain). */
  sender?: string;
  /** Our id in the returned headers. */
  letterId?: string;
  action?: string;
  status?: string;
  diagnostic?: string;
};

/** Postfix's "Undelivered Mail Returned to Sender" (or "Delayed Mail" for action delayed). */
export function postfixDsn({
  recipient,
  sender = 'no-reply@news.example.jp',
  letterId,
  action = 'failed',
  status = '5.1.1',
  diagnostic = `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown in virtual mailbox table`,
}: DsnSample): string {
  const delayed = action === 'delayed';
  return crlf(`Return-Path: <>
Delivered-To: ${sender}
Date: Fri, 27 Nov 2026 10:00:01 +0900 (JST)
From: MAILER-DAEMON@mail.news.example.jp (Mail Delivery System)
Subject: ${delayed ? 'Delayed Mail (still being retried)' : 'Undelivered Mail Returned to Sender'}
To: ${sender}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4Xy2.1764205201/mail.news.example.jp"
Message-Id: <20261127010001.4Xy2@mail.news.example.jp>

This is a MIME-encapsulated message.

--4Xy2.1764205201/mail.news.example.jp
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mail.news.example.jp.

--4Xy2.1764205201/mail.news.example.jp
Content-Description: ${delayed ? 'Delivery delay' : 'Delivery'} report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.news.example.jp
X-Postfix-Queue-ID: 4Xy2
X-Postfix-Sender: rfc822; ${sender}
Arrival-Date: Fri, 27 Nov 2026 09:59:58 +0900 (JST)

Final-Recipient: rfc822; ${recipient}
Original-Recipient: rfc822;${recipient}
Action: ${action}
Status: ${status}
Remote-MTA: dns; mx.example.com
Diagnostic-Code: smtp; ${diagnostic.replace(/(.{40}\S*) /, '$1\n    ')}

--4Xy2.1764205201/mail.news.example.jp
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

${letterHeaders(recipient, letterId, sender)}

--4Xy2.1764205201/mail.news.example.jp--
`);
}

/** Gmail's "Delivery Status Notification (Failure)", the letter returned whole. */
export function gmailDsn({ recipient, letterId }: DsnSample): string {
  return crlf(`Return-Path: <>
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: no-reply@news.example.jp
Auto-Submitted: auto-replied
Subject: Delivery Status Notification (Failure)
MIME-Version: 1.0
Content-Type: multipart/report; boundary="000000000000c4d2a805f1b2e3d4"; report-type=delivery-status

--000000000000c4d2a805f1b2e3d4
Content-Type: multipart/alternative; boundary="000000000000c4e9b005f1b2e3e2"

--000000000000c4e9b005f1b2e3e2
Content-Type: text/plain; charset="UTF-8"

** Address not found **

Your message wasn't delivered to ${recipient} because the address couldn't be found, or is unable to receive mail.

--000000000000c4e9b005f1b2e3e2
Content-Type: text/html; charset="UTF-8"

<html><body><h2>Address not found</h2></body></html>
--000000000000c4e9b005f1b2e3e2--

--000000000000c4d2a805f1b2e3d4
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Received-From-MTA: dns; mail.news.example.jp
Arrival-Date: Fri, 27 Nov 2026 01:02:03 -0800 (PST)

Final-Recipient: rfc822; ${recipient}
Action: failed
Status: 5.1.1
Remote-MTA: dns; gmail-smtp-in.l.google.com. (142.250.0.26, the server for the domain)
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist.
 550 5.1.1 https://support.google.com/mail/?p=NoSuchUser
Last-Attempt-Date: Fri, 27 Nov 2026 01:02:04 -0800 (PST)

--000000000000c4d2a805f1b2e3d4
Content-Type: message/rfc822

${letterHeaders(recipient, letterId)}
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: base64

5LuK6YCx44Gu6KiY5LqL

--000000000000c4d2a805f1b2e3d4--
`);
}

/** A feedback-loop report (ARF) as a large mailbox provider sends one: the letter attached. */
export function arfReport({
  recipient,
  letterId,
  feedbackType = 'abuse',
  rcptTo = recipient,
}: {
  recipient: string;
  letterId?: string;
  feedbackType?: string;
  /** Original-Rcpt-To; providers often redact it. */
  rcptTo?: string | null;
}): string {
  return crlf(`From: <feedback@arf.mail.example.net>
Date: Fri, 27 Nov 2026 12:00:00 +0000
Subject: FW: =?UTF-8?B?5LuK6YCx44Gu6KiY5LqL?=
To: fbl@news.example.jp
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report;
     boundary="part1_13d.2e68ed54_boundary"

--part1_13d.2e68ed54_boundary
Content-Type: text/plain; charset="US-ASCII"
Content-Transfer-Encoding: 7bit

This is an email abuse report for an email message received from IP 192.0.2.10.

--part1_13d.2e68ed54_boundary
Content-Type: message/feedback-report

Feedback-Type: ${feedbackType}
User-Agent: ExampleMail-Feedback/2.0
Version: 1
Original-Mail-From: <no-reply@news.example.jp>
${rcptTo ? `Original-Rcpt-To: <${rcptTo}>\n` : ''}Arrival-Date: Fri, 27 Nov 2026 11:58:00 +0000
Reporting-MTA: dns; mail.example.net
Source-IP: 192.0.2.10

--part1_13d.2e68ed54_boundary
Content-Type: message/rfc822
Content-Disposition: inline

${letterHeaders(recipient, letterId)}
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: base64

5LuK6YCx44Gu6KiY5LqL

--part1_13d.2e68ed54_boundary--
`);
}
