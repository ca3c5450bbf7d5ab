import { CreateReadModels1732300000000 } from './1732300000000-create-read-models';
import { FoldRulesVersion1764900000000 } from './1764900000000-fold-rules-version';
import { HexColumnsInCCollation1765000000000 } from './1765000000000-hex-columns-in-c-collation';
import { PositionEventId1766200000000 } from './1766200000000-position-event-id';
import { PositionEventPosition1766300000000 } from './1766300000000-position-event-position';
import { AppliedBlocks1766500000000 } from './1766500000000-applied-blocks';

/** In order; a new migration is appended here. */
export const READ_MODEL_MIGRATIONS = [
  CreateReadModels1732300000000,
  FoldRulesVersion1764900000000,
  HexColumnsInCCollation1765000000000,
  PositionEventId1766200000000,
  PositionEventPosition1766300000000,
  AppliedBlocks1766500000000,
];
