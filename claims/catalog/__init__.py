"""This repository's catalog helpers: the three lessons and the works claims cite, the lessons' demo values, and the
lessons' own code run as adapters.

They sit beside the claim files (a claim imports ``from catalog.works import LESSON_002``) and are no part of the
installed package: another repository has its own documents and helpers (docs/your-repository.md).
"""
