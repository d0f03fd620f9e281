"""The dealing shoe: protocol codec, serial link, plain-scanner driver and the virtual shoe.

Public entry points: ``ShoeLink`` and ``ScannerLink`` (same ``on_event`` interface), ``VirtualShoe``,
``to_law_event``; the protocol itself is ``hardware/shoe/PROTOCOL.md``. Import the submodules directly
(``from firmware_host.shoe.link import ShoeLink``) to keep imports light.
"""
