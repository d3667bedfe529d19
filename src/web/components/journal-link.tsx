import { useContext } from 'react';
import { Link } from 'react-router';
import type { SourceKind } from '../../shared/accounting';
import { can } from '../../shared/roles';
import { journalEntryPath, journalPath } from '../lib/admin-paths';
import { SignedInContext } from '../lib/signed-in';
import { buttonClass } from './button';

type JournalLinkProps =
  | {
      source?: SourceKind;
      sourceId: string;
      /** The link's words, when "Journal entry" alone would not say which (a bill's entry and its void). */
      label?: string;
    }
  | {
      /** One entry the document names by id (a bill's entry, the reversal that voided it). */
      entry: { _id: string; number: string };
      label?: string;
    };

/**
 * "Journal entry" on a document's screen (a sale, a refund, a purchase order, a till session, a
 * stocktake, a bill), for those who read the books: the journal filtered to the entries the
 * document posted (DESIGN §19), or the one entry the document names. `source` left out: every
 * entry naming the document (a session's opening and closing).
 */
export function JournalLink(props: JournalLinkProps) {
  const user = useContext(SignedInContext);
  if (!user || !can(user.role, 'accounting:read')) return null;
  const to =
    'entry' in props
      ? journalEntryPath(props.entry._id)
      : journalPath({ source: props.source, sourceId: props.sourceId });
  return (
    <Link to={to} className={buttonClass('secondary')}>
      {props.label ?? 'Journal entry'}
    </Link>
  );
}
