"""The authority: games created, seats taken, moves applied, clocks and the house.

It runs on asyncio and reaches Redis only through the store; the transports (HTTP and
WebSocket) call it, one function per request.
"""
