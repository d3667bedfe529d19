import { useContext } from 'react';
import { Link } from 'react-router';
import type { SourceKind } from '../../shared/accounting';
import { can } from '../../shared/roles';
import { journalPath } from '../lib/admin-paths';
import { SignedInContext } from '../lib/signed-in';
import { buttonClass } from './button';

/**
 * "Journal entry" on a document's screen (a sale, a refund, a purchase order, a till session, a
 * stocktake), for those who read the books: the journal filtered to the entries the document
 * posted (DESIGN §19). `source` left out: every entry naming the document (a session's opening
 * and closing).
 */
export function JournalLink({ source, sourceId }: { source?: SourceKind; sourceId: string }) {
  const user = useContext(SignedInContext);
  if (!user || !can(user.role, 'accounting:read')) return null;
  return (
    <Link to={journalPath({ source, sourceId })} className={buttonClass('secondary')}>
      Journal entry
    </Link>
  );
}
