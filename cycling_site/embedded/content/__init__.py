"""The embedded content service: pages, articles, FAQs, social links, menus and site info, read from the
repository's content/ folder.

It owns its router (service.py) and the folder reader (store.py); the site reaches it only through
clients/content.py, over the contract in wire/content.py."""
