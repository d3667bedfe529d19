-- Trigram matching for "name contains" searches over large catalogues (a GIN index in 0002 uses it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
