"""yescrypt_hash.getPoWHash(header): the "yescrypt" preset of libyespower.

Pools and Electrum servers import this module by this name; see the
yespower module for the API and yespower.presets() for the parameters.
"""
from yespower import _pow_hash_function

getPoWHash = _pow_hash_function("yescrypt")
