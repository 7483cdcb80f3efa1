"""The 40kdc-data package (CC BY 4.0 data, "Powered by 40kdc-data",
https://40kdc.alpacasoft.dev) converted into ``assets/40kdc/``.

Run ``python -m dataimport.fortykdc`` (needs npm and the network) to fetch the pinned version,
check its integrity hash and rewrite the converted files; the app reads only the result.
"""
