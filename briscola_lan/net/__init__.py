"""The network layer: TLS, framing over asyncio streams, the host server, the client, mDNS.

The only package that opens sockets; it wraps the pure coordinator (``table.host``) and client
session (``table.client``). The normative description is protocol/transport.md.
"""
