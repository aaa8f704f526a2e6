"""Get people from the Wikidata SPARQL endpoint: the live alternative to a full JSON dump.

The Wikidata Query Service (https://query.wikidata.org/sparql) stops every query after 60
seconds and throttles clients that use too much of its time, so the work is cut into many small
queries that each finish well within the limit:

1. :func:`occupation_counts` says how many people each occupation has (to plan a run);
2. :func:`iter_people` walks the QIDs of the people of each occupation in pages, splitting a
   page that times out into partitions by the last digits of the person's QID, and yields
   every finished :class:`Batch` so an interrupted run can resume;
3. :func:`fetch_entities` gets the details of a block of people as the same
   :class:`~occbio.records.Entity` records the dump reader builds;
4. :func:`fetch_labels` gets occupation labels.

This module is the one place callers import these from; the code lives in one module per job:

- :mod:`occbio.extract.sparql_client`: :class:`SparqlClient` and its errors
  (:class:`SparqlError`, :class:`EndpointUnreachable`, :class:`QueryTimeout`): how requests are
  sent, retried and their failures classified;
- :mod:`occbio.extract.wikidata_query`: validation and escaping of every value put into a query
  (:func:`validate_qid`, :func:`sparql_literal`), the prefixes, and the query pieces shared by
  the two modules below;
- :mod:`occbio.extract.wikidata_people`: which people a run wants (:class:`PeopleQuery`), the
  counts per occupation and the walk over their QIDs (steps 1 and 2);
- :mod:`occbio.extract.wikidata_entities`: the details of people and the labels of occupations
  (steps 3 and 4).
"""

from __future__ import annotations

from occbio.extract.sparql_client import (
    WIKIDATA_ENDPOINT,
    EndpointUnreachable,
    QueryTimeout,
    SparqlClient,
    SparqlError,
)
from occbio.extract.wikidata_entities import fetch_entities, fetch_labels
from occbio.extract.wikidata_people import Batch, PeopleQuery, iter_people, occupation_counts
from occbio.extract.wikidata_query import sparql_literal, validate_qid

__all__ = [
    "WIKIDATA_ENDPOINT",
    "SparqlError",
    "EndpointUnreachable",
    "QueryTimeout",
    "validate_qid",
    "sparql_literal",
    "SparqlClient",
    "PeopleQuery",
    "Batch",
    "occupation_counts",
    "iter_people",
    "fetch_entities",
    "fetch_labels",
]
