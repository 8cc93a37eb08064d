"""``alfabeta serve``: a local web page to play any game against any searcher, watch matches and
tournaments, and see the search (the optional extra ``alfabeta[web]``: Starlette on uvicorn)."""
