"""This repository's catalog helpers: the three lessons and the works claims cite, the lessons' demo values, and the
lessons' own code run as adapters.

They sit beside the claim files (a claim imports ``from claims.catalog.works import LESSON_002``: the repository's
root is on the path) and are no part of the installed package: another repository has its own documents and helpers
(docs/your-repository.md).
"""
