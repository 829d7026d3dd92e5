"""zny_yespower_0_5.getPoWHash(header): the "yescryptr8" preset of libyespower,
under the name ElectrumX's Bitzeny class imports.

Pools and Electrum servers import this module by this name; see the
yespower module for the API and yespower.presets() for the parameters.
"""
from yespower import _pow_hash_function

getPoWHash = _pow_hash_function("yescryptr8")
